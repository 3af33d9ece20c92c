//! Code scanning's alerts of our tool on one ref, and a change of one alert's state
//! (`GET /repos/{owner}/{repo}/code-scanning/alerts`, paginated; `PATCH …/alerts/{number}`):
//! what `ci` needs to dismiss the alerts of allowed warnings (docs/configuration.md).
//!
//! Only the fields used are read, each optional, so a field GitHub Enterprise Server omits or
//! adds cannot fail the listing (octocrab's typed alert requires a dozen more).

use serde::Deserialize;

use super::client::{Failure, Http};
use super::upload::TOOL_NAME;

/// GitHub's largest page of alerts.
pub(crate) const PER_PAGE: usize = 100;
/// GitHub's limit on a dismissal's comment, in characters (`dismissed_comment`'s `maxLength`).
pub(crate) const MAX_COMMENT: usize = 280;
/// The dismissal reason `ci` gives: the warning was judged and accepted.
pub(crate) const WONT_FIX: &str = "won't fix";

/// One alert, as far as `ci` reads it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Alert {
    pub(crate) number: u64,
    /// `rule.id`.
    pub(crate) rule: String,
    /// `most_recent_instance.location.path`: relative to the repository root.
    pub(crate) path: String,
    /// `most_recent_instance.message.text`: the SARIF result's `message.text`.
    pub(crate) message: String,
    pub(crate) dismissed_comment: Option<String>,
}

#[derive(Deserialize)]
struct Wire {
    number: u64,
    #[serde(default)]
    dismissed_comment: Option<String>,
    #[serde(default)]
    rule: Option<WireRule>,
    #[serde(default)]
    most_recent_instance: Option<WireInstance>,
}

#[derive(Deserialize)]
struct WireRule {
    #[serde(default)]
    id: Option<String>,
}

#[derive(Deserialize)]
struct WireInstance {
    #[serde(default)]
    message: Option<WireText>,
    #[serde(default)]
    location: Option<WirePath>,
}

#[derive(Deserialize)]
struct WireText {
    #[serde(default)]
    text: Option<String>,
}

#[derive(Deserialize)]
struct WirePath {
    #[serde(default)]
    path: Option<String>,
}

impl From<Wire> for Alert {
    fn from(w: Wire) -> Alert {
        let instance = w.most_recent_instance;
        let (message, location) = match instance {
            Some(i) => (i.message, i.location),
            None => (None, None),
        };
        Alert {
            number: w.number,
            rule: w.rule.and_then(|r| r.id).unwrap_or_default(),
            path: location.and_then(|l| l.path).unwrap_or_default(),
            message: message.and_then(|m| m.text).unwrap_or_default(),
            dismissed_comment: w.dismissed_comment,
        }
    }
}

/// The alerts listed, and whether the list was whole.
#[derive(Debug, Clone, Default)]
pub(crate) struct Listed {
    pub(crate) alerts: Vec<Alert>,
    /// More pages were left unread (past `max_pages`).
    pub(crate) cut: bool,
}

/// The alerts of [`TOOL_NAME`] on `git_ref` in `state` (`open` or `dismissed`), pages of
/// [`PER_PAGE`], at most `max_pages` of them; `rel="next"` is followed only to the API's origin.
pub(crate) async fn list(
    http: &Http,
    (owner, repo): (&str, &str),
    git_ref: &str,
    state: &str,
    max_pages: usize,
    mut on_retry: impl FnMut(&Failure),
) -> Result<Listed, Failure> {
    let query = url::form_urlencoded::Serializer::new(String::new())
        .append_pair("tool_name", TOOL_NAME)
        .append_pair("state", state)
        .append_pair("ref", git_ref)
        .append_pair("per_page", &PER_PAGE.to_string())
        .finish();
    let mut uri = format!("/repos/{owner}/{repo}/code-scanning/alerts?{query}");
    let mut listed = Listed::default();
    for page in 0.. {
        if page == max_pages {
            listed.cut = true;
            break;
        }
        let answer = http.request(None, &uri, &mut on_retry).await?;
        let wire: Vec<Wire> = answer.json()?;
        listed.alerts.extend(wire.into_iter().map(Alert::from));
        match answer.next_page()? {
            Some(next) => uri = next,
            None => break,
        }
    }
    Ok(listed)
}

/// What to do to one alert.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Change {
    /// Dismiss as [`WONT_FIX`] with this comment (at most [`MAX_COMMENT`] characters).
    Dismiss(String),
    /// Open again.
    Reopen,
}

/// Changes the state of alert `number`.
pub(crate) async fn change(
    http: &Http,
    (owner, repo): (&str, &str),
    number: u64,
    change: &Change,
    on_retry: impl FnMut(&Failure),
) -> Result<(), Failure> {
    let body = match change {
        Change::Dismiss(comment) => serde_json::json!({
            "state": "dismissed",
            "dismissed_reason": WONT_FIX,
            "dismissed_comment": comment,
        }),
        Change::Reopen => serde_json::json!({"state": "open"}),
    };
    let uri = format!("/repos/{owner}/{repo}/code-scanning/alerts/{number}");
    http.patch(&body, &uri, on_retry).await.map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_alert_reads_what_it_can_and_leaves_the_rest_empty() {
        let full = r#"[{"number": 4, "state": "dismissed", "dismissed_comment": "c",
            "rule": {"id": "shell-text", "severity": "warning"},
            "most_recent_instance": {"message": {"text": "m"},
                "location": {"path": "packs/a/x.md", "start_line": 3}}},
            {"number": 5, "rule": {"id": null}}]"#;
        let wire: Vec<Wire> = serde_json::from_str(full).unwrap();
        let alerts: Vec<Alert> = wire.into_iter().map(Alert::from).collect();
        assert_eq!(
            alerts[0],
            Alert {
                number: 4,
                rule: "shell-text".into(),
                path: "packs/a/x.md".into(),
                message: "m".into(),
                dismissed_comment: Some("c".into()),
            }
        );
        assert_eq!(
            alerts[1],
            Alert {
                number: 5,
                ..Alert::default()
            }
        );
        // Control: an alert without its number is not an alert.
        assert!(serde_json::from_str::<Vec<Wire>>(r#"[{"state": "open"}]"#).is_err());
    }
}
