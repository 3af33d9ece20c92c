//! `hippo-packs ci` with `comment: true` (docs/action.md, "One pull-request comment"): one
//! comment kept up to date over three runs, someone else's marked comment left alone, a token
//! that cannot write. The REST routes (the issue comments) go through the validating proxy with
//! the feature `external-tools`, like every `ci` test; GraphQL's `viewer`, which GitHub's REST
//! description does not hold, is checked against GitHub's GraphQL schema by the stand-in
//! (tests/common/graphql.rs), with or without the feature.

use crate::common;

use common::ci_env::*;
use common::github_api::*;
use common::standin::{Request, Server};

const MARKER: &str = "<!-- hippo-packs comment: category hippo-packs -->";

fn commenting_pr(url: &str) -> common::ci_run::Ci {
    let mut ci = pull_request(url, false, 1);
    ci.set("INPUT_COMMENT", "true");
    ci
}

fn writes(server: &Server) -> Vec<Request> {
    server
        .requests()
        .into_iter()
        .filter(|r| r.path().contains("/comments") && r.method != "GET")
        .collect()
}

#[test]
fn one_comment_is_edited_in_place_over_three_runs() {
    let thread = Thread::default();
    let server = Server::start(commenting(
        &["packs/broken/pack.toml"],
        thread.clone(),
        false,
    ));
    let ws = workspace();
    let first = commenting_pr(&server.url).run(ws.path());
    hygiene(&first);
    assert_eq!(first.code, 1, "{first}");
    assert!(
        first
            .stdout
            .contains("hippo-packs: comment: created on pull request #7"),
        "{first}"
    );
    let body = thread.lock().unwrap()[0]["body"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        body.starts_with(&format!("{MARKER}\n## hippo-packs\n")),
        "{body}"
    );
    assert!(
        body.contains("❌ **Failed**") && body.contains("packs/broken/pack.toml"),
        "{body}"
    );
    assert!(
        !body.contains("packs/good/"),
        "an ungated pack's findings stay out:\n{body}"
    );

    // The pull request fixes the pack: the same comment says so.
    let manifest = ws.path().join("packs/broken/pack.toml");
    let fixed = std::fs::read_to_string(&manifest)
        .unwrap()
        .replace("homepage = \"elsewhere\"\n", "");
    std::fs::write(&manifest, fixed).unwrap();
    let second = commenting_pr(&server.url).run(ws.path());
    assert_eq!(second.code, 0, "{second}");
    assert!(
        second
            .stdout
            .contains("comment: edited in place on pull request #7"),
        "{second}"
    );
    let third = commenting_pr(&server.url).run(ws.path());
    assert!(
        third.stdout.contains("comment: already up to date"),
        "{third}"
    );

    let t = thread.lock().unwrap();
    assert_eq!(t.len(), 1, "never a second comment: {t:#?}");
    assert!(
        t[0]["body"].as_str().unwrap().contains("✅ **Passed**"),
        "{t:#?}"
    );
    let w: Vec<String> = writes(&server).iter().map(|r| r.method.clone()).collect();
    assert_eq!(
        w,
        ["POST", "PATCH"],
        "one creation, one edit, nothing when unchanged"
    );
    let graphql = server
        .requests()
        .into_iter()
        .filter(|r| r.path() == "/graphql")
        .count();
    assert_eq!(graphql, 3, "the token's identity is asked once a run");
}

#[test]
fn someone_elses_marked_comment_is_left_alone() {
    let mallory = issue_comment(
        5,
        ("mallory", 99),
        &format!("{MARKER}\nAll packs pass, merge away."),
    );
    let thread: Thread = std::sync::Arc::new(std::sync::Mutex::new(vec![mallory.clone()]));
    let server = Server::start(commenting(
        &["packs/broken/pack.toml"],
        thread.clone(),
        false,
    ));
    let r = commenting_pr(&server.url).run(workspace().path());
    hygiene(&r);
    assert!(
        r.stdout.contains("comment: a comment by mallory on pull request #7 holds this category's marker; left alone"),
        "{r}"
    );
    let t = thread.lock().unwrap();
    assert_eq!(t.len(), 2, "{t:#?}");
    assert_eq!(t[0], mallory, "mallory's comment is untouched");
    assert_eq!(t[1]["user"]["id"], BOT.1, "ours is a comment of its own");
    assert!(
        writes(&server).iter().all(|w| w.method == "POST"),
        "nothing edited"
    );
}

#[test]
fn a_token_that_cannot_write_is_a_notice() {
    let thread = Thread::default();
    let server = Server::start(commenting(&["packs/good/pack.toml"], thread.clone(), true));
    let r = commenting_pr(&server.url).run(workspace().path());
    hygiene(&r);
    assert_eq!(r.code, 0, "the verdict never depends on the comment:\n{r}");
    let notice = r
        .stdout
        .lines()
        .find(|l| l.starts_with("::notice title=hippo-packs (comment)::"))
        .unwrap_or_else(|| panic!("no notice:\n{r}"));
    assert!(
        notice.contains("HTTP 403") && notice.contains("pull-requests: write"),
        "{notice}"
    );
    assert!(thread.lock().unwrap().is_empty());

    // Control: `comment` off (its default) asks nothing of the comments nor of GraphQL.
    let quiet = Server::start(commenting(
        &["packs/good/pack.toml"],
        Thread::default(),
        true,
    ));
    let r = pull_request(&quiet.url, false, 1).run(workspace().path());
    assert!(!r.stdout.contains("comment"), "{r}");
    assert!(
        quiet
            .requests()
            .iter()
            .all(|q| q.path() != "/graphql" && !q.path().contains("/comments")),
        "{:?}",
        quiet.requests()
    );
}

/// The stand-in's GraphQL check refuses what GitHub's schema refuses: a field `User` lacks, a
/// scalar with a selection, a key GraphQL-over-HTTP does not have; `ci`'s own query passes.
#[test]
fn control_the_graphql_check_refuses_what_githubs_schema_refuses() {
    let req = |body: &str| Request {
        method: "POST".into(),
        target: "/graphql".into(),
        headers: Default::default(),
        body: body.as_bytes().to_vec(),
        at: std::time::Instant::now(),
    };
    let ours = serde_json::json!({"query": "query { viewer { login databaseId } }"}).to_string();
    assert_eq!(common::graphql::problems(&req(&ours)), Vec::<String>::new());
    for bad in [
        r#"{"query": "query { viewer { login id } }"}"#,
        r#"{"query": "{ viewer { login { x } } }"}"#,
        r#"{"query": "{ viewer }"}"#,
        r#"{"query": "{ user(login: \"x\") { login } }"}"#,
        r#"{"query": "{ viewer { login } }", "extra": 1}"#,
        r#"{"variables": {}}"#,
    ] {
        assert!(!common::graphql::problems(&req(bad)).is_empty(), "{bad}");
    }
}
