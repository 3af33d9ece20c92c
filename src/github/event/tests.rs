use super::*;

/// The pull request of a payload's text, as the event reads it.
fn pull_request_of(payload: &str) -> Option<PullRequest> {
    serde_json::from_str(payload)
        .ok()
        .and_then(|v: Value| pull_request(&v))
}

/// The default branch of a payload's text, as the event reads it.
fn default_branch_of(payload: &str) -> Option<String> {
    serde_json::from_str(payload)
        .ok()
        .and_then(|v: Value| default_branch(&v))
}

const PR: &str = r#"{"number": 7, "pull_request": {"number": 7, "changed_files": 3,
    "merge_commit_sha": "CCCC",
    "head": {"sha": "aaaa", "repo": {"full_name": "someone/packs", "fork": true}},
    "base": {"sha": "BBBB", "repo": {"full_name": "octo/packs"}}}}"#;

#[test]
fn reads_a_pull_request() {
    assert_eq!(
        pull_request_of(PR),
        Some(PullRequest {
            number: 7,
            changed_files: Some(3),
            from_fork: true,
            head_sha: Some("aaaa".into()),
            base_sha: Some("bbbb".into()),
            merge_sha: Some("cccc".into()),
            author: None,
        })
    );
    let same = r#"{"pull_request": {"number": 8,
        "head": {"repo": {"full_name": "octo/packs"}}, "base": {"repo": {"full_name": "octo/packs"}}}}"#;
    assert_eq!(
        pull_request_of(same).map(|p| (p.number, p.from_fork)),
        Some((8, false))
    );
}

#[test]
fn reads_the_default_branch() {
    let push = r#"{"ref": "refs/heads/main", "repository": {"default_branch": "main"}}"#;
    assert_eq!(default_branch_of(push).as_deref(), Some("main"));
    assert_eq!(default_branch_of(r#"{"schedule": "17 3 * * *"}"#), None);
    assert_eq!(
        default_branch_of(r#"{"repository": {"default_branch": ""}}"#),
        None
    );
    assert_eq!(default_branch_of("not json"), None);
}

#[test]
fn other_events_and_garbage_are_none() {
    assert_eq!(pull_request_of(r#"{"ref": "refs/heads/main"}"#), None);
    assert_eq!(pull_request_of("not json"), None);
    assert_eq!(
        pull_request_of(r#"{"pull_request": {"number": "x"}}"#),
        None
    );
}

#[test]
fn the_name_says_which_part_of_the_payload_is_read() {
    let pr = WorkflowEvent::parse(Some("pull_request"), Some(PR));
    assert_eq!(pr.pull_request().map(|p| p.number), Some(7));
    assert!(matches!(pr.changes(), Changes::PullRequest(p) if p.number == 7));
    assert_eq!(pr.read_only(), Some("this pull request comes from a fork"));
    assert!(pr.scope_defaults_to_changed() && !pr.github_sha_is_base());
    let target = WorkflowEvent::parse(Some("pull_request_target"), Some(PR));
    assert!(target.github_sha_is_base());
    assert_eq!(
        target.read_only(),
        None,
        "a pull_request_target token writes"
    );
    // Another event's pull request gives the changes, but the run is not of it.
    let review = WorkflowEvent::parse(Some("pull_request_review"), Some(PR));
    assert!(matches!(review.changes(), Changes::PullRequest(_)));
    assert_eq!(review.pull_request(), None);
    assert!(!review.scope_defaults_to_changed());
    // Control: a push's payload is not read for a pull request.
    let push = WorkflowEvent::parse(Some("push"), Some(PR));
    assert_eq!(push.changes(), Changes::Unknown);
    assert_eq!(push.read_only(), None);
}

#[test]
fn malformed_payloads_leave_their_part_absent() {
    for payload in [
        None,
        Some("not json"),
        Some(r#"{"ref": "refs/heads/main"}"#),
    ] {
        let pr = WorkflowEvent::parse(Some("pull_request"), payload);
        assert_eq!(pr, WorkflowEvent::PullRequest(None));
        assert!(pr.scope_defaults_to_changed(), "the name decides the scope");
        assert_eq!(pr.changes(), Changes::Unknown);
        let group = WorkflowEvent::parse(Some("merge_group"), payload);
        assert_eq!(group, WorkflowEvent::MergeGroup(None));
    }
    let half = r#"{"merge_group": {"base_sha": "1111"}}"#;
    assert_eq!(
        WorkflowEvent::parse(Some("merge_group"), Some(half)).changes(),
        Changes::Unknown
    );
    let whole = r#"{"merge_group": {"base_sha": "1111", "head_sha": "2222"}}"#;
    let group = WorkflowEvent::parse(Some("merge_group"), Some(whole));
    assert!(matches!(group.changes(), Changes::MergeGroup(g) if g.head_sha == "2222"));
    assert_eq!(
        WorkflowEvent::parse(None, None),
        WorkflowEvent::Other {
            pull_request: None,
            merge_group: None
        }
    );
}

#[test]
fn only_runs_of_the_default_branch_may_dismiss() {
    let main = Some(r#"{"repository": {"default_branch": "main"}}"#);
    for name in ["push", "schedule", "workflow_dispatch"] {
        let e = WorkflowEvent::parse(Some(name), main);
        assert!(e.may_dismiss_on("refs/heads/main"), "{name}");
        assert!(!e.may_dismiss_on("refs/heads/feature"), "{name}");
    }
    let silent = Some(r#"{"schedule": "17 3 * * *"}"#);
    assert!(WorkflowEvent::parse(Some("schedule"), silent).may_dismiss_on("refs/heads/x"));
    assert!(!WorkflowEvent::parse(Some("push"), silent).may_dismiss_on("refs/heads/x"));
    for name in [
        "pull_request",
        "pull_request_target",
        "merge_group",
        "release",
    ] {
        let e = WorkflowEvent::parse(Some(name), main);
        assert!(!e.may_dismiss_on("refs/heads/main"), "control: {name}");
    }
}
