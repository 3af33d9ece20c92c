//! A check run holding the findings as annotations (the Checks API), as reviewdog posts them:
//! created `in_progress` with the first 50, updated with 50 more per request (how GitHub takes
//! more than 50), then one final update with `completed`, the conclusion and the summary
//! (`POST /repos/{owner}/{repo}/check-runs`, `PATCH …/check-runs/{id}`). At most
//! [`MAX_ANNOTATIONS`] in 20 requests: `GITHUB_TOKEN` has 1,000 requests an hour per
//! repository, and a secondary limit on requests that create content.

use serde::Serialize;
use serde_json::Value;

use super::client::{Failure, Http};

/// The most annotations one request may carry.
pub(crate) const PER_REQUEST: usize = 50;
/// GitHub's limit on a check run's `output.summary` and `output.text`, in characters.
pub(crate) const MAX_OUTPUT: usize = 65_535;
/// The most annotations one check run gets: 20 requests of 50.
pub(crate) const MAX_ANNOTATIONS: usize = 1_000;
/// GitHub's limit on an annotation's message: 64 KB.
pub(crate) const MAX_MESSAGE: usize = 64 * 1024;

/// One annotation as the Checks API takes it. Columns only on a one-line span.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub(crate) struct Annotation {
    pub(crate) path: String,
    pub(crate) start_line: usize,
    pub(crate) end_line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) start_column: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) end_column: Option<usize>,
    /// `notice`, `warning` or `failure`.
    pub(crate) annotation_level: &'static str,
    pub(crate) title: String,
    pub(crate) message: String,
    /// The rule's help line, shown under the message when opened.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) raw_details: Option<String>,
}

/// What the run says about itself.
#[derive(Debug, Clone)]
pub(crate) struct CheckRun {
    pub(crate) owner: String,
    pub(crate) repo: String,
    /// The check run's name (the category).
    pub(crate) name: String,
    /// The commit it belongs to (a pull request's head, so it shows on the pull request).
    pub(crate) head_sha: String,
    /// `success`, `failure` or `neutral`.
    pub(crate) conclusion: &'static str,
    pub(crate) title: String,
    pub(crate) summary: String,
}

/// What publishing did: the run exists from the first request on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Published {
    pub(crate) id: u64,
    /// The run's page (`html_url`), when GitHub gave it.
    pub(crate) url: Option<String>,
    /// Annotations GitHub took.
    pub(crate) sent: usize,
    pub(crate) requests: usize,
    /// Why annotating stopped early (a rate limit, most likely); the final update is still
    /// tried, so the run does not stay `in_progress`.
    pub(crate) stopped: Option<Failure>,
    /// The final update failed: the run may show `in_progress`.
    pub(crate) unfinished: Option<Failure>,
}

/// Creates the check run `in_progress` with the first 50 of at most [`MAX_ANNOTATIONS`]
/// annotations (the caller ranks them and counts the rest in the summary), appends 50 a
/// request, and completes it with the last batch. `Err` only when the run could not be created.
pub(crate) async fn publish(
    http: &Http,
    run: &CheckRun,
    annotations: &[Annotation],
    mut on_retry: impl FnMut(&Failure),
) -> Result<Published, Failure> {
    let kept = &annotations[..annotations.len().min(MAX_ANNOTATIONS)];
    let batches: Vec<&[Annotation]> = kept.chunks(PER_REQUEST).collect();
    let output = |batch: &[Annotation]| {
        serde_json::json!({
            "title": cut(&run.title, 255),
            "summary": cut(&run.summary, MAX_OUTPUT),
            "annotations": batch,
        })
    };
    let first = batches.first().copied().unwrap_or(&[]);
    let body = serde_json::json!({
        "name": run.name,
        "head_sha": run.head_sha,
        "status": "in_progress",
        "output": output(first),
    });
    let route = format!("/repos/{}/{}/check-runs", run.owner, run.repo);
    let created: Value = http
        .request(Some(&body), &route, &mut on_retry)
        .await?
        .json()?;
    let id = created
        .get("id")
        .and_then(Value::as_u64)
        .ok_or_else(|| Failure::Decode("the created check run has no id".to_string()))?;
    let update = format!("{route}/{id}");
    let url = created
        .get("html_url")
        .and_then(Value::as_str)
        .map(str::to_string);
    let mut done = Published {
        id,
        url,
        sent: first.len(),
        requests: 1,
        stopped: None,
        unfinished: None,
    };
    let (middle, last) = match batches.len() {
        0 | 1 => (&[][..], &[][..]),
        n => (&batches[1..n - 1], batches[n - 1]),
    };
    for batch in middle {
        let body = serde_json::json!({ "output": output(batch) });
        done.requests += 1;
        match http.patch(&body, &update, &mut on_retry).await {
            Ok(_) => done.sent += batch.len(),
            Err(f) => {
                done.stopped = Some(f);
                break;
            }
        }
    }
    let last = if done.stopped.is_some() {
        &[][..]
    } else {
        last
    };
    let body = serde_json::json!({
        "status": "completed",
        "conclusion": run.conclusion,
        "output": output(last),
    });
    done.requests += 1;
    match http.patch(&body, &update, &mut on_retry).await {
        Ok(_) => done.sent += last.len(),
        Err(f) => done.unfinished = Some(f),
    }
    Ok(done)
}

/// A message cut to GitHub's [`MAX_MESSAGE`] bytes, on a character boundary, with `…`.
pub(crate) fn cap_message(m: &str) -> String {
    if m.len() <= MAX_MESSAGE {
        return m.to_string();
    }
    let mut end = MAX_MESSAGE - '…'.len_utf8();
    while !m.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &m[..end])
}

/// At most `max` characters, with `…` when cut.
fn cut(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max - 1).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_texts_are_cut_and_columns_only_when_given() {
        assert_eq!(cut("abcdef", 4), "abc…");
        assert_eq!(cut("abc", 4), "abc");
        let a = Annotation {
            path: "packs/a/pack.toml".into(),
            start_line: 2,
            end_line: 3,
            start_column: None,
            end_column: None,
            annotation_level: "failure",
            title: "hippo-packs (unknown-key)".into(),
            message: "m".into(),
            raw_details: None,
        };
        let v = serde_json::to_value(&a).unwrap();
        assert!(v.get("start_column").is_none() && v["annotation_level"] == "failure");
        assert!(v.get("raw_details").is_none(), "only when given");
        let with = Annotation {
            raw_details: Some("Delete the key.".into()),
            ..a
        };
        assert_eq!(
            serde_json::to_value(&with).unwrap()["raw_details"],
            "Delete the key."
        );
    }

    #[test]
    fn messages_are_capped_at_64_kb_on_a_character_boundary() {
        let long = "é".repeat(MAX_MESSAGE);
        let capped = cap_message(&long);
        assert!(capped.len() <= MAX_MESSAGE && capped.ends_with('…'));
        assert_eq!(
            cap_message("short"),
            "short",
            "control: short messages stay"
        );
    }
}
