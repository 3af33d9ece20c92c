use super::*;
use crate::ci::settings::Flags;

fn settings(inputs: &[(&str, &str)]) -> Settings {
    let map: HashMap<String, String> = inputs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    let flags = Flags {
        http_timeout: 3,
        upload_wait: 5,
        ..Flags::default()
    };
    let none = WorkflowEvent::parse(None, None);
    Settings::resolve(
        flags,
        &|k: &str| map.get(k).cloned(),
        &GithubEnv::default(),
        &none,
    )
    .unwrap()
}

/// A run of `event` on `git_ref`, its payload naming `main` the default branch (or nothing).
fn github(event: &str, git_ref: &str, default: Option<&str>) -> (GithubEnv, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let payload = dir.path().join("event.json");
    let json = match default {
        Some(b) => serde_json::json!({"repository": {"default_branch": b}}),
        None => serde_json::json!({"schedule": "17 3 * * *"}),
    };
    std::fs::write(&payload, json.to_string()).unwrap();
    let gh = GithubEnv {
        event_name: Some(event.into()),
        git_ref: Some(git_ref.into()),
        event_path: Some(payload),
        repository: Some("octo/packs".into()),
        ..GithubEnv::default()
    };
    (gh, dir)
}

/// The decision on the event `gh` names, read as the run reads it.
fn decide_on(s: &Settings, gh: &GithubEnv, up: &Uploaded) -> Decision {
    decide(s, gh, &WorkflowEvent::from_env(gh), up)
}

fn uploaded(git_ref: &str, processed: bool) -> Uploaded {
    Uploaded {
        uploaded: true,
        sarif_id: Some("47177e22".into()),
        processed,
        git_ref: Some(git_ref.into()),
        ..Uploaded::default()
    }
}

const MAIN: &str = "refs/heads/main";

#[test]
fn only_processed_runs_of_the_default_branch_dismiss() {
    let s = settings(&[]);
    let up = uploaded(MAIN, true);
    for event in ["push", "schedule", "workflow_dispatch"] {
        let (gh, _d) = github(event, MAIN, Some("main"));
        assert_eq!(
            decide_on(&s, &gh, &up),
            Decision::Go(MAIN.into()),
            "{event}"
        );
    }
    // A schedule's payload need not name the branch: GitHub runs it on the default one.
    let (gh, _d) = github("schedule", MAIN, None);
    assert_eq!(decide_on(&s, &gh, &up), Decision::Go(MAIN.into()));
    let (gh, _d) = github("push", MAIN, None);
    assert_eq!(decide_on(&s, &gh, &up), Decision::Skip, "a push must say");
    for event in [
        "pull_request",
        "pull_request_target",
        "merge_group",
        "release",
    ] {
        let (gh, _d) = github(event, MAIN, Some("main"));
        assert_eq!(decide_on(&s, &gh, &up), Decision::Skip, "{event}");
    }
    let (gh, _d) = github("push", "refs/heads/feature", Some("main"));
    let feature = uploaded("refs/heads/feature", true);
    assert_eq!(
        decide_on(&s, &gh, &feature),
        Decision::Skip,
        "another branch"
    );
    let (gh, _d) = github("push", MAIN, Some("main"));
    let elsewhere = uploaded("refs/heads/release", true);
    assert_eq!(
        decide_on(&s, &gh, &elsewhere),
        Decision::Skip,
        "the ref input"
    );
    let off = settings(&[("INPUT_DISMISS-ALLOWED", "false")]);
    assert_eq!(decide_on(&off, &gh, &up), Decision::Skip);
    let no_upload = settings(&[("INPUT_UPLOAD", "false")]);
    assert_eq!(decide_on(&no_upload, &gh, &up), Decision::Skip);
    assert_eq!(decide_on(&s, &gh, &Uploaded::default()), Decision::Skip);
    match decide_on(&s, &gh, &uploaded(MAIN, false)) {
        Decision::Wait(msg) => assert!(msg.contains("not finished processing SARIF 47177e22")),
        other => panic!("{other:?}"),
    }
}

fn sarif(results: serde_json::Value) -> String {
    serde_json::json!({"runs": [{"results": results}]}).to_string()
}

fn result(rule: &str, uri: &str, text: &str, reason: Option<&str>) -> serde_json::Value {
    let mut r = serde_json::json!({"ruleId": rule, "message": {"text": text},
        "locations": [{"physicalLocation": {"artifactLocation": {"uri": uri}}}]});
    if let Some(reason) = reason {
        r["suppressions"] = serde_json::json!([{"kind": "external", "status": "accepted", "justification": reason}]);
    }
    r
}

fn key(rule: &str, path: &str, text: &str) -> Key {
    (rule.into(), path.into(), text.into())
}

#[test]
fn results_are_keyed_as_alerts_show_them() {
    let s = sarif(serde_json::json!([
        result("shell-text", "packs/a%20b/x.md", "t", Some("judged")),
        result("shell-text", "packs/c/x.md", "t", Some("judged")),
        result("shell-text", "packs/c/x.md", "t", None),
        result("injection-phrase", "packs/c/x.md", "u", None),
    ]));
    let r = results(&s);
    assert_eq!(
        r.get(&key("shell-text", "packs/a b/x.md", "t")),
        Some(&Some("judged".to_string())),
        "the URI decoded as code scanning shows the path"
    );
    assert_eq!(
        r.get(&key("shell-text", "packs/c/x.md", "t")),
        Some(&None),
        "one result without an allowance: not allowed"
    );
    assert_eq!(
        r.get(&key("injection-phrase", "packs/c/x.md", "u")),
        Some(&None)
    );
    assert_eq!(r.len(), 3);
    assert!(results("not json").is_empty());
}

fn alert(number: u64, (rule, path, text): (&str, &str, &str), comment: Option<&str>) -> Alert {
    Alert {
        number,
        rule: rule.into(),
        path: path.into(),
        message: text.into(),
        dismissed_comment: comment.map(str::to_string),
    }
}

#[test]
fn open_alerts_of_allowed_results_are_dismissed_and_ours_reopened() {
    let allowed = ("shell-text", "packs/a/x.md", "t");
    let reported = ("injection-phrase", "packs/a/x.md", "u");
    let gone = ("shell-text", "packs/gone/x.md", "t");
    let mut r = HashMap::new();
    r.insert(key(allowed.0, allowed.1, allowed.2), Some("judged".into()));
    r.insert(key(reported.0, reported.1, reported.2), None);
    let open = [alert(1, allowed, None), alert(2, reported, None)];
    let ours = format!("{MARK}old reason");
    let dismissed = [
        alert(3, reported, Some(&ours)),
        alert(4, reported, Some("false positive: see the review")),
        alert(5, gone, Some(&ours)),
        alert(6, allowed, Some(&ours)),
    ];
    assert_eq!(
        plan(&open, &dismissed, &r),
        [
            (1, Change::Dismiss(format!("{MARK}judged"))),
            (3, Change::Reopen)
        ],
        "2 is not allowed; 4 was dismissed by a person; 5's result is gone; 6 stays allowed"
    );
}

#[test]
fn a_comment_keeps_the_mark_within_githubs_limit() {
    assert_eq!(comment("short"), format!("{MARK}short"));
    let long = comment(&"é".repeat(400));
    assert_eq!(long.chars().count(), alerts::MAX_COMMENT);
    assert!(long.starts_with(MARK) && long.ends_with('…'));
}

#[test]
fn a_403_names_the_permission_and_a_rate_limit_says_so() {
    let done = Done {
        dismissed_now: 2,
        ..Done::default()
    };
    let forbidden = Failure::Status {
        code: 403,
        message: "Resource not accessible by integration".into(),
    };
    let msg = refusal(&forbidden, &done);
    assert!(msg.contains("security-events: write") && msg.contains("after 2 dismissed"));
    let limited = Failure::RateLimited {
        code: 429,
        message: "slow down".into(),
    };
    assert!(refusal(&limited, &Done::default()).contains("rate limit"));
    let other = Failure::Status {
        code: 404,
        message: "Not Found".into(),
    };
    assert!(!refusal(&other, &Done::default()).contains("security-events"));
}
