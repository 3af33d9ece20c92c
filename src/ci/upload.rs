//! The upload step: the SARIF file to code scanning, and what to say when it cannot go.

use super::commit;
use super::context::RunContext;
use super::settings::UploadMode;
use crate::github::command::Level;
use crate::github::{client, upload};

/// What the upload step did.
#[derive(Default)]
pub(crate) struct Uploaded {
    pub(crate) uploaded: bool,
    pub(crate) sarif_id: Option<String>,
    /// Code scanning finished processing it (`complete`).
    pub(crate) processed: bool,
    /// The ref it went to.
    pub(crate) git_ref: Option<String>,
    /// The upload was required (`upload: true`) and failed.
    pub(crate) failed_required: bool,
    pub(crate) notes: Vec<String>,
}

/// The step's record and voice: what it did, and where it says so.
struct Step<'c, 'a> {
    done: Uploaded,
    required: bool,
    cx: &'c mut RunContext<'a>,
}

impl Step<'_, '_> {
    /// A problem: an error that fails the job when the upload is required, else a notice.
    fn problem(&mut self, msg: String) -> anyhow::Result<()> {
        let level = if self.required {
            Level::Error
        } else {
            Level::Notice
        };
        self.cx.annotate(level, "upload", &msg)?;
        self.done.failed_required |= self.required;
        self.done.notes.push(format!("upload: {msg}"));
        Ok(())
    }

    /// A line in the log and the summary's notes.
    fn note(&mut self, note: String) -> anyhow::Result<()> {
        self.cx.line(&format!("hippo-packs: {note}"))?;
        self.done.notes.push(note);
        Ok(())
    }

    /// A notice annotation and the summary's notes.
    fn notice(&mut self, msg: String) -> anyhow::Result<()> {
        self.cx.annotate(Level::Notice, "upload", &msg)?;
        self.done.notes.push(format!("upload: {msg}"));
        Ok(())
    }
}

/// Uploads the SARIF file as `upload` says.
pub(crate) fn upload(sarif: &[u8], cx: &mut RunContext<'_>) -> anyhow::Result<Uploaded> {
    let (s, gh, event) = (cx.settings, cx.gh, cx.event);
    let mut step = Step {
        done: Uploaded::default(),
        required: s.upload == UploadMode::True,
        cx,
    };
    if s.upload == UploadMode::False {
        step.done.notes.push("upload: off".to_string());
        return Ok(step.done);
    }
    // A fork's or Dependabot's pull request is tried too: whether the token may write cannot
    // be known before asking (GitHub raises a Dependabot token to what `permissions:` grant).
    let missing = missing_context(step.cx);
    if !missing.is_empty() {
        if step.required {
            step.problem(format!("cannot upload without {}", missing.join(", ")))?;
        } else {
            step.note(format!("upload skipped: no {}", missing.join(", ")))?;
        }
        return Ok(step.done);
    }
    let commit = match commit::target(&s.target, &s.repository.dir, gh, event) {
        Ok(c) => c,
        Err(why) if step.required => {
            step.problem(format!("cannot upload: {why}"))?;
            return Ok(step.done);
        }
        Err(why) => {
            step.notice(format!("not uploaded: {why}"))?;
            return Ok(step.done);
        }
    };
    step.done.git_ref = Some(commit.git_ref.clone());
    step.note(format!(
        "upload: commit {} on {} (from {})",
        commit.sha, commit.git_ref, commit.how
    ))?;
    let (encoded, gz_len) = upload::encode(sarif)?;
    if gz_len > upload::MAX_GZIPPED {
        step.problem(format!(
            "not uploaded: the SARIF file is {gz_len} bytes gzipped, over code scanning's limit of {} bytes; the annotations and the job summary carry the findings",
            upload::MAX_GZIPPED
        ))?;
        return Ok(step.done);
    }
    send(&mut step, encoded, &commit)?;
    Ok(step.done)
}

/// What the upload needs and the run does not have.
fn missing_context(cx: &RunContext<'_>) -> Vec<&'static str> {
    let (s, gh) = (cx.settings, cx.gh);
    [
        ("token", s.token.is_none()),
        ("GITHUB_REPOSITORY", gh.owner_repo().is_none()),
    ]
    .into_iter()
    .filter_map(|(n, m)| m.then_some(n))
    .collect()
}

/// The request, and what its answer means.
fn send(step: &mut Step<'_, '_>, encoded: String, commit: &commit::Target) -> anyhow::Result<()> {
    let (s, gh) = (step.cx.settings, step.cx.gh);
    let Some((owner, repo)) = gh.owner_repo() else {
        return step.problem("cannot upload without GITHUB_REPOSITORY".to_string());
    };
    let target = upload::Target {
        owner: owner.to_string(),
        repo: repo.to_string(),
        commit_sha: commit.sha.clone(),
        git_ref: commit.git_ref.clone(),
        started_at: s.started_at,
        checkout_uri: Some(format!("file://{}", s.repository.dir.to_string_lossy())),
    };
    let result = step.cx.github("upload", async |http, retry| {
        upload::upload(http, &target, encoded, s.upload_wait, retry).await
    })?;
    match result {
        Ok(accepted) => processed(step, accepted),
        Err(f) => {
            let read_only = step.cx.event.read_only();
            step.problem(refusal(&f, read_only, owner, repo))
        }
    }
}

/// What code scanning made of an accepted upload.
fn processed(step: &mut Step<'_, '_>, accepted: upload::Accepted) -> anyhow::Result<()> {
    let s = step.cx.settings;
    step.done.sarif_id = Some(accepted.id.clone());
    let id = &accepted.id;
    match accepted.processing {
        upload::Processing::Complete => {
            step.done.uploaded = true;
            step.done.processed = true;
            step.note(format!("upload: SARIF {id} processed (complete)"))
        }
        upload::Processing::Pending => {
            step.done.uploaded = true;
            step.notice(format!(
                "SARIF {id} accepted; code scanning was still processing it after {}s (pending)",
                s.upload_wait.as_secs()
            ))
        }
        upload::Processing::Unknown(why) => {
            step.done.uploaded = true;
            step.notice(format!(
                "SARIF {id} accepted; its processing status is unknown: {why}"
            ))
        }
        upload::Processing::Failed(errors) => {
            let errs = if errors.is_empty() {
                "no reason given".to_string()
            } else {
                errors.join("; ")
            };
            let msg = format!("code scanning failed to process SARIF {id}: {errs}");
            if step.required {
                step.problem(msg)
            } else {
                // `auto`: the verdict stands, but a failed processing is worth a warning.
                step.cx.annotate(Level::Warning, "upload", &msg)?;
                step.done.notes.push(format!("upload: {msg}"));
                Ok(())
            }
        }
    }
}

/// Why GitHub refused the upload, and what to do about it; `read_only` says why a 403 is the
/// read-only token of a fork's or Dependabot's pull request.
fn refusal(f: &client::Failure, read_only: Option<&str>, owner: &str, repo: &str) -> String {
    if let client::Failure::RateLimited { .. } = f {
        return format!(
            "not uploaded ({f}): GitHub's API rate limit, still after waiting as GitHub asked (Retry-After, at most {}s a time). Re-run the job later, or spread the jobs that call the API with this token (a matrix, many workflows at once); permissions are not the problem. The annotations and the job summary carry the findings.",
            client::MAX_RATE_WAIT.as_secs()
        );
    }
    match f.status() {
        Some(403) if read_only.is_some() => format!(
            "not uploaded ({f}): {}, and this run's token is read-only: it cannot write code-scanning results. To get code scanning's results on such pull requests, set `upload: false` here and add `github/codeql-action/upload-sarif` in the same job with `sarif_file:` set to this step's `sarif-file` output (docs/action.md, \"Fork and Dependabot pull requests\"). The annotations and the job summary carry the findings.",
            read_only.unwrap_or_default()
        ),
        Some(403) => format!(
            "not uploaded ({f}): the token cannot write code-scanning results. Give the job `permissions: security-events: write`, and on a private repository enable code scanning (GitHub Advanced Security / Code Security); or set `upload: false`. The annotations and the job summary carry the findings."
        ),
        Some(404) => format!(
            "not uploaded ({f}): the code-scanning API was not found for {owner}/{repo}; check GITHUB_API_URL, the token's access to the repository, and that code scanning is available (GitHub Enterprise Server needs it enabled)."
        ),
        Some(413) => format!(
            "not uploaded ({f}): the SARIF upload is too large for code scanning (10 MB gzipped at most). The annotations and the job summary carry the findings."
        ),
        _ => format!("not uploaded: {f}"),
    }
}
