//! Allowances in code scanning (docs/configuration.md, "Allowed warnings in code scanning"):
//! on push, schedule and workflow_dispatch runs of the default branch, once code scanning has
//! processed the upload, `ci` dismisses the open alerts of allowed warnings and reopens the ones
//! it dismissed whose allowance is gone; never on a pull request or another branch, and never
//! failing the job.

use crate::common;

use std::sync::{Arc, Mutex};

use common::ci_env::{dispatch_event, pull_request, push, push_event, schedule_event};
use common::ci_run::{Ci, CiRun};
use common::github_api::{accepted, alert, alert_state, decode_upload, processing};
use common::standin::{Reply, Request, Server, send};
use serde_json::Value;

use common::WARNED_ALLOWANCE as ALLOW;

/// How the dismissal's comment starts (src/ci/dismiss.rs).
const MARK: &str = "hippo-packs allowance: ";

/// A workspace with a pack whose prompt quotes an injection phrase (a warning), and another
/// (`broken-log`) with an unknown manifest key (an error); `allow`: the root's `.hippo-packs.toml` allows
/// the warning.
fn workspace(allow: bool) -> tempfile::TempDir {
    let ws = tempfile::tempdir().unwrap();
    common::warned_pack(&ws.path().join("packs"));
    let broken = common::copy_pack("decision-log", &ws.path().join("packs"), "broken");
    common::name_pack(&broken, "broken-log");
    let manifest = broken.join("pack.toml");
    let m = std::fs::read_to_string(&manifest).unwrap() + "homepage = \"elsewhere\"\n";
    std::fs::write(&manifest, m).unwrap();
    if allow {
        std::fs::write(ws.path().join(".hippo-packs.toml"), ALLOW).unwrap();
    }
    ws
}

/// Code scanning as the tests play it: each result of an upload becomes an alert (once per
/// rule, path and message), open, the injection phrase's started as `seed` says (`None`: open;
/// `Some(comment)`: dismissed with it); processing ends `status`; the alerts answer `alerts` (200, or 403 without
/// `security-events: write`) and change state as asked.
#[derive(Clone)]
struct Scanning {
    alerts: Arc<Mutex<Vec<Value>>>,
    seed: Option<&'static str>,
    status: &'static str,
    code: u16,
}

impl Scanning {
    fn new() -> Scanning {
        Scanning {
            alerts: Arc::default(),
            seed: None,
            status: "complete",
            code: 200,
        }
    }

    fn start(&self) -> Server {
        let me = self.clone();
        Server::start(move |req, _| me.answer(req))
    }

    fn answer(&self, req: &Request) -> Reply {
        match (req.method.as_str(), req.path()) {
            ("POST", p) if p.ends_with("/code-scanning/sarifs") => {
                self.process(&decode_upload(req));
                accepted()
            }
            ("GET", p) if p.contains("/code-scanning/sarifs/") => {
                Reply::Json(200, processing(self.status))
            }
            (_, p) if p.contains("/code-scanning/alerts") && self.code != 200 => Reply::Json(
                self.code,
                r#"{"message": "Resource not accessible by integration"}"#.into(),
            ),
            ("GET", p) if p.ends_with("/code-scanning/alerts") => {
                let state = query(req, "state");
                let listed: Vec<Value> = self
                    .alerts
                    .lock()
                    .unwrap()
                    .iter()
                    .filter(|a| a["state"] == state.as_str())
                    .cloned()
                    .collect();
                Reply::Json(200, Value::Array(listed).to_string())
            }
            ("PATCH", p) if p.contains("/code-scanning/alerts/") => {
                let n: u64 = p.rsplit('/').next().unwrap().parse().unwrap();
                let body = req.json();
                let mut alerts = self.alerts.lock().unwrap();
                let a = alerts.iter_mut().find(|a| a["number"] == n).unwrap();
                *a = match body["state"].as_str() {
                    Some("dismissed") => alert_state(a, body["dismissed_comment"].as_str()),
                    _ => alert_state(a, None),
                };
                Reply::Json(200, a.to_string())
            }
            _ => Reply::Json(404, r#"{"message": "Not Found"}"#.into()),
        }
    }

    /// New alerts for the results of an uploaded SARIF.
    fn process(&self, sarif: &[u8]) {
        let sarif = common::valid_sarif(sarif);
        let mut alerts = self.alerts.lock().unwrap();
        for r in sarif["runs"][0]["results"].as_array().unwrap() {
            let loc = &r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"];
            let key = (
                r["ruleId"].as_str().unwrap(),
                loc.as_str().unwrap(),
                r["message"]["text"].as_str().unwrap(),
            );
            let known = alerts.iter().any(|a| {
                let i = &a["most_recent_instance"];
                (a["rule"]["id"].as_str(), i["location"]["path"].as_str())
                    == (Some(key.0), Some(key.1))
                    && i["message"]["text"] == key.2
            });
            if !known {
                let number = alerts.len() as u64 + 1;
                let seed = self.seed.filter(|_| key.0 == "injection-phrase");
                alerts.push(alert(number, key, seed));
            }
        }
    }

    /// (number, state, comment) of every alert.
    fn states(&self) -> Vec<(u64, String, Option<String>)> {
        self.alerts
            .lock()
            .unwrap()
            .iter()
            .map(|a| {
                (
                    a["number"].as_u64().unwrap(),
                    a["state"].as_str().unwrap().to_string(),
                    a["dismissed_comment"].as_str().map(str::to_string),
                )
            })
            .collect()
    }

    /// The state of the injection phrase's alert.
    fn allowed_alert(&self) -> (String, Option<String>) {
        let alerts = self.alerts.lock().unwrap();
        let a = alerts
            .iter()
            .find(|a| a["rule"]["id"] == "injection-phrase")
            .expect("an alert of the warning");
        (
            a["state"].as_str().unwrap().to_string(),
            a["dismissed_comment"].as_str().map(str::to_string),
        )
    }
}

/// A query parameter's value.
fn query(req: &Request, name: &str) -> String {
    let q = req.target.split_once('?').map_or("", |(_, q)| q);
    q.split('&')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.replace("%2F", "/"))
        .unwrap_or_default()
}

/// A push of main (GitHub's push example), with every input the runner sets.
fn on_main(api: &str) -> Ci {
    let mut ci = push(api);
    ci.event(&push_event("refs/heads/main"));
    ci
}

fn changes(gh: &Server) -> Vec<Request> {
    gh.requests()
        .into_iter()
        .filter(|r| r.method == "PATCH" && r.path().contains("/code-scanning/alerts/"))
        .collect()
}

fn lists(gh: &Server) -> usize {
    gh.requests()
        .iter()
        .filter(|r| r.method == "GET" && r.path().ends_with("/code-scanning/alerts"))
        .count()
}

/// The notices about code scanning's alerts.
fn notices(r: &CiRun) -> String {
    r.stdout
        .lines()
        .filter(|l| l.contains("title=hippo-packs (code scanning)::"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_push_of_the_default_branch_dismisses_the_alerts_of_allowed_warnings() {
    let scanning = Scanning::new();
    let gh = scanning.start();
    let ws = workspace(true);
    let r = on_main(&gh.url).run(ws.path());
    assert_eq!(r.code, 1, "the broken pack fails the push: {r}");
    let (state, comment) = scanning.allowed_alert();
    assert_eq!(state, "dismissed", "{r}");
    assert_eq!(
        comment.as_deref(),
        Some("hippo-packs allowance: The prompt quotes the phrase as a thing to reject.")
    );
    let patches = changes(&gh);
    assert_eq!(patches.len(), 1, "only the allowed warning's alert: {r}");
    assert_eq!(patches[0].json()["dismissed_reason"], "won't fix");
    let lists: Vec<Request> = gh
        .requests()
        .into_iter()
        .filter(|q| q.method == "GET" && q.path().ends_with("/code-scanning/alerts"))
        .collect();
    for q in &lists {
        assert_eq!(query(q, "tool_name"), "hippo-packs");
        assert_eq!(query(q, "ref"), "refs/heads/main");
    }
    assert!(
        r.stdout.contains(
            "hippo-packs: allowances in code scanning: 1 dismissed as allowed, 0 reopened (of 2 open and 0 dismissed alerts on refs/heads/main)"
        ),
        "{r}"
    );
    assert!(r.summary.contains("1 dismissed as allowed"), "{r}");
    let open: Vec<_> = scanning
        .states()
        .into_iter()
        .filter(|(_, s, _)| s == "open")
        .collect();
    assert_eq!(open.len(), 1, "the error's alert stays open: {r}");
    // Control: without the allowance nothing is dismissed.
    let scanning = Scanning::new();
    let gh = scanning.start();
    let r = on_main(&gh.url).run(workspace(false).path());
    assert_eq!(r.code, 1, "{r}");
    assert!(changes(&gh).is_empty(), "{r}");
    assert_eq!(scanning.allowed_alert().0, "open");
}

#[test]
fn schedule_and_workflow_dispatch_runs_of_the_default_branch_dismiss_too() {
    for event in [
        ("schedule", schedule_event()),
        ("workflow_dispatch", dispatch_event("refs/heads/main")),
    ] {
        let scanning = Scanning::new();
        let gh = scanning.start();
        let mut ci = push(&gh.url);
        ci.set("GITHUB_EVENT_NAME", event.0).event(&event.1);
        let r = ci.run(workspace(true).path());
        assert_eq!(scanning.allowed_alert().0, "dismissed", "{}: {r}", event.0);
    }
}

#[test]
fn a_pull_request_dismisses_nothing() {
    let scanning = Scanning::new();
    let gh = scanning.start();
    let ws = workspace(true);
    let mut ci = pull_request(&gh.url, false, 1);
    ci.set("INPUT_FAIL-ON", "never");
    let r = ci.run(ws.path());
    assert_eq!(r.code, 0, "{r}");
    assert_eq!(gh.uploads().len(), 1, "the pull request uploads: {r}");
    assert_eq!((lists(&gh), changes(&gh).len()), (0, 0), "{r}");
    for event in ["pull_request_target", "merge_group"] {
        let scanning = Scanning::new();
        let gh = scanning.start();
        let mut ci = on_main(&gh.url);
        ci.set("GITHUB_EVENT_NAME", event);
        ci.run(ws.path());
        assert_eq!((lists(&gh), changes(&gh).len()), (0, 0), "{event}");
    }
    // Control: the push of main with the same workspace does.
    let scanning = Scanning::new();
    let gh = scanning.start();
    on_main(&gh.url).run(ws.path());
    assert_eq!(changes(&gh).len(), 1);
}

#[test]
fn a_push_of_another_branch_dismisses_nothing() {
    let scanning = Scanning::new();
    let gh = scanning.start();
    let ws = workspace(true);
    let mut ci = push(&gh.url);
    ci.set("GITHUB_REF", "refs/heads/feature")
        .event(&push_event("refs/heads/feature"));
    let r = ci.run(ws.path());
    assert_eq!(gh.uploads().len(), 1, "the branch uploads: {r}");
    assert_eq!((lists(&gh), changes(&gh).len()), (0, 0), "{r}");
    assert_eq!(scanning.allowed_alert().0, "open");
    // Controls: dismiss-allowed false and upload false dismiss nothing on main either.
    for (input, value) in [
        ("INPUT_DISMISS-ALLOWED", "false"),
        ("INPUT_UPLOAD", "false"),
    ] {
        let scanning = Scanning::new();
        let gh = scanning.start();
        let mut ci = on_main(&gh.url);
        ci.set(input, value);
        let r = ci.run(ws.path());
        assert_eq!((lists(&gh), changes(&gh).len()), (0, 0), "{input}: {r}");
    }
}

#[test]
fn an_alert_it_dismissed_is_reopened_when_the_allowance_is_gone() {
    let mut scanning = Scanning::new();
    let older = format!("{MARK}an older reason");
    scanning.seed = Some(Box::leak(older.into_boxed_str()));
    let gh = scanning.start();
    let r = on_main(&gh.url).run(workspace(false).path());
    assert_eq!(scanning.allowed_alert().0, "open", "{r}");
    assert!(
        r.stdout.contains("0 dismissed as allowed, 1 reopened"),
        "{r}"
    );
    // Control: with the allowance in place it stays dismissed.
    let gh = scanning.start();
    scanning.alerts.lock().unwrap().clear();
    let r = on_main(&gh.url).run(workspace(true).path());
    assert_eq!(scanning.allowed_alert().0, "dismissed", "{r}");
    assert!(
        changes(&gh).iter().all(|q| q.json()["state"] != "open"),
        "{r}"
    );
}

#[test]
fn an_alert_dismissed_by_a_person_is_left_alone() {
    let mut scanning = Scanning::new();
    scanning.seed = Some("false positive: the prompt rejects the phrase");
    let gh = scanning.start();
    let r = on_main(&gh.url).run(workspace(false).path());
    assert!(changes(&gh).is_empty(), "{r}");
    assert_eq!(
        scanning.allowed_alert(),
        (
            "dismissed".to_string(),
            Some("false positive: the prompt rejects the phrase".to_string())
        )
    );
    // Control: the same alert with our mark is reopened.
    let mut scanning = Scanning::new();
    scanning.seed = Some(MARK);
    let gh = scanning.start();
    on_main(&gh.url).run(workspace(false).path());
    assert_eq!(changes(&gh).len(), 1);
    assert_eq!(scanning.allowed_alert().0, "open");
}

#[test]
fn processing_that_never_completes_dismisses_nothing_and_changes_no_verdict() {
    let mut scanning = Scanning::new();
    scanning.status = "pending";
    let gh = scanning.start();
    let ws = workspace(true);
    let mut ci = on_main(&gh.url);
    ci.flag("--upload-wait", "2");
    let r = ci.run(ws.path());
    assert_eq!(r.code, 1, "the broken pack's verdict, as ever: {r}");
    assert_eq!((lists(&gh), changes(&gh).len()), (0, 0), "{r}");
    assert!(
        notices(&r).contains(
            "not finished processing SARIF 47177e22-5596-11eb-80a1-c1e54ef945c6 within 2s"
        ),
        "{r}"
    );
    // Control: once processed, the same run dismisses.
    scanning.status = "complete";
    let gh = scanning.start();
    let r2 = ci.api(&gh.url).run(ws.path());
    assert_eq!(r2.code, r.code);
    assert_eq!(changes(&gh).len(), 1, "{r2}");
    assert!(notices(&r2).is_empty(), "{r2}");
}

#[test]
fn a_token_without_security_events_write_is_a_notice() {
    let mut scanning = Scanning::new();
    scanning.code = 403;
    let gh = scanning.start();
    let ws = workspace(true);
    let r = on_main(&gh.url).run(ws.path());
    assert_eq!(r.code, 1, "the broken pack's verdict, as ever: {r}");
    let n = notices(&r);
    assert!(
        n.contains("HTTP 403") && n.contains("security-events: write"),
        "{r}"
    );
    assert!(
        r.errors().iter().all(|e| !e.contains("code scanning")),
        "{r}"
    );
    // Control: with the permission the alert is dismissed.
    scanning.code = 200;
    let gh = scanning.start();
    on_main(&gh.url).run(ws.path());
    assert_eq!(changes(&gh).len(), 1);
}

#[test]
#[ignore = "needs node (npm ci in .ci/node)"]
fn the_proxy_holds_a_dismissal_to_githubs_description() {
    let gh = Server::start_proxied(|req: &Request, _| {
        let a = alert(3, ("shell-text", "packs/a/x.md", "m"), None);
        Reply::Json(
            200,
            alert_state(&a, req.json()["dismissed_comment"].as_str()).to_string(),
        )
    });
    let route = "/repos/octo/packs/code-scanning/alerts/3";
    let ours = serde_json::json!({"state": "dismissed", "dismissed_reason": "won't fix",
        "dismissed_comment": format!("{MARK}{}", "r".repeat(280 - MARK.len()))});
    assert_eq!(send(&gh.url, "PATCH", route, &ours.to_string()), 200);
    assert_eq!(
        gh.take_violations(),
        Some(Vec::new()),
        "control: ours passes"
    );
    for bad in [
        serde_json::json!({"state": "dismissed", "dismissed_reason": "won't fix",
            "dismissed_comment": "r".repeat(281)}),
        serde_json::json!({"state": "dismissed", "dismissed_reason": "allowed"}),
    ] {
        send(&gh.url, "PATCH", route, &bad.to_string());
        assert_eq!(gh.take_violations().unwrap().len(), 1, "{bad}");
    }
}
