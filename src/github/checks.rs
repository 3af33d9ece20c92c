//! A check run holding every finding as an annotation (the Checks API): created with the
//! first 50, then updated with 50 more per request, which is how GitHub takes more than 50
//! (`POST /repos/{owner}/{repo}/check-runs`, `PATCH …/check-runs/{id}`).

use serde::Serialize;
use serde_json::Value;

use super::client::{Failure, Http};

/// The most annotations one request may carry.
pub const PER_REQUEST: usize = 50;
/// GitHub's limit on a check run's `output.summary` and `output.text`, in characters.
pub const MAX_OUTPUT: usize = 65_535;

/// One annotation as the Checks API takes it. Columns only on a one-line span.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Annotation {
    pub path: String,
    pub start_line: usize,
    pub end_line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_column: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_column: Option<usize>,
    /// `notice`, `warning` or `failure`.
    pub annotation_level: &'static str,
    pub title: String,
    pub message: String,
}

/// What the run says about itself.
#[derive(Debug, Clone)]
pub struct CheckRun {
    pub owner: String,
    pub repo: String,
    /// The check run's name (the category).
    pub name: String,
    /// The commit it belongs to (a pull request's head, so it shows on the pull request).
    pub head_sha: String,
    /// `success`, `failure` or `neutral`.
    pub conclusion: &'static str,
    pub title: String,
    pub summary: String,
}

/// Creates the check run with every annotation; returns its id and how many requests it took.
pub async fn publish(
    http: &Http,
    run: &CheckRun,
    annotations: &[Annotation],
    mut on_retry: impl FnMut(&Failure),
) -> Result<(u64, usize), Failure> {
    let mut batches = annotations.chunks(PER_REQUEST);
    let output = |batch: &[Annotation]| {
        serde_json::json!({
            "title": cut(&run.title, 255),
            "summary": cut(&run.summary, MAX_OUTPUT),
            "annotations": batch,
        })
    };
    let body = serde_json::json!({
        "name": run.name,
        "head_sha": run.head_sha,
        "status": "completed",
        "conclusion": run.conclusion,
        "output": output(batches.next().unwrap_or(&[])),
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
    let mut requests = 1;
    for batch in batches {
        let body = serde_json::json!({ "output": output(batch) });
        http.patch(&body, &update, &mut on_retry).await?;
        requests += 1;
    }
    Ok((id, requests))
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
        };
        let v = serde_json::to_value(&a).unwrap();
        assert!(v.get("start_column").is_none() && v["annotation_level"] == "failure");
    }
}
