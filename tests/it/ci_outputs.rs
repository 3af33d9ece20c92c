//! What a pull request's run says back (docs/action.md, "Inputs and outputs", "Annotations"):
//! the outputs `verdict`, `failing-packs` and `check-run-url`; a check run whose conclusion
//! follows the gated packs, an untouched pack's error annotated at `notice` level, the
//! finding's hint in the annotation's `message` and the rule's help in its `raw_details`; a
//! job summary that lists the packs the pull request touches first, passing or not. Against the
//! stand-in for GitHub's API.

use crate::common;

use common::ci_env::pull_request;
use common::ci_run::CiRun;
use common::github_api::{accepted, check_run, files_json, processing};
use common::standin::{Reply, Request, Server};

/// The check run's address in GitHub's example answer.
const RUN_URL: &str = "https://github.com/github/hello-world/runs/4";

fn github(touched: &'static str) -> impl Fn(&Request, usize) -> Reply + Send + Sync {
    move |req, _| match (req.method.as_str(), req.path()) {
        ("GET", p) if p.ends_with("/files") => Reply::Json(200, files_json(&[touched])),
        ("POST", p) if p.ends_with("/code-scanning/sarifs") => accepted(),
        ("GET", p) if p.contains("/code-scanning/sarifs/") => {
            Reply::Json(200, processing("complete"))
        }
        ("POST", p) if p.ends_with("/check-runs") => Reply::Json(201, check_run(4)),
        ("PATCH", p) if p.ends_with("/check-runs/4") => Reply::Json(200, check_run(4)),
        _ => Reply::Json(404, r#"{"message": "Not Found"}"#.into()),
    }
}

/// `packs/good` (the page's decision-log) and `packs/typo`, the same named `typo-log` with
/// `licence` for `license` in its manifest: one error, whose hint is `did you mean `license`?`.
fn registry() -> tempfile::TempDir {
    let ws = common::ci_env::good_workspace();
    common::copy_tree(&common::ci_env::good_pack(), &ws.path().join("packs/typo"));
    let manifest = ws.path().join("packs/typo/pack.toml");
    let m = std::fs::read_to_string(&manifest)
        .unwrap()
        .replace("license = ", "licence = ")
        .replace("name = \"decision-log\"", "name = \"typo-log\"");
    std::fs::write(&manifest, m).unwrap();
    ws
}

/// Every annotation the check run received, in order.
fn annotations(gh: &Server) -> Vec<serde_json::Value> {
    gh.requests()
        .iter()
        .filter(|q| q.path().contains("/check-runs"))
        .flat_map(|q| {
            q.json()["output"]["annotations"]
                .as_array()
                .cloned()
                .unwrap_or_default()
        })
        .collect()
}

/// The conclusion of the check run's last update.
fn conclusion(gh: &Server) -> String {
    let patches: Vec<Request> = gh
        .requests()
        .into_iter()
        .filter(|q| q.method == "PATCH")
        .collect();
    let last = patches.last().expect("a final update").json();
    last["conclusion"].as_str().unwrap_or_default().to_string()
}

fn typo_annotation(gh: &Server, r: &CiRun) -> serde_json::Value {
    annotations(gh)
        .into_iter()
        .find(|a| a["path"] == "packs/typo/pack.toml")
        .unwrap_or_else(|| panic!("the typo's annotation: {r}"))
}

#[test]
fn an_untouched_packs_error_is_a_notice_and_the_run_passes() {
    let gh = Server::start(github("packs/good/pack.toml"));
    let ws = registry();
    let r = pull_request(&gh.url, false, 1).run(ws.path());
    assert_eq!(r.code, 0, "{r}");
    assert!(
        annotations(&gh)
            .iter()
            .all(|a| a["path"] != "packs/typo/pack.toml"),
        "filter-mode new: the untouched pack's error is not the pull request's: {r}"
    );
    let gh = Server::start(github("packs/good/pack.toml"));
    let mut all = pull_request(&gh.url, false, 1);
    all.set("INPUT_FILTER-MODE", "all");
    let r = all.run(ws.path());
    assert_eq!(r.code, 0, "{r}");
    assert_eq!(r.out("verdict"), Some("pass"), "{r}");
    assert_eq!(r.out("failing-packs"), Some("[]"), "{r}");
    assert_eq!(r.out("check-run-url"), Some(RUN_URL), "{r}");
    assert_eq!(conclusion(&gh), "success");
    let a = typo_annotation(&gh, &r);
    assert_eq!(a["annotation_level"], "notice", "{a}");
    // The summary lists the touched pack first, though it passes.
    let good = r.summary.find("<code>packs/good</code>");
    let typo = r.summary.find("<code>packs/typo</code>");
    assert!(
        good.is_some() && typo.is_some() && good < typo,
        "{}",
        r.summary
    );
}

#[test]
fn a_touched_packs_error_fails_the_run_with_the_hint_on_the_pull_request() {
    let gh = Server::start(github("packs/typo/pack.toml"));
    let ws = registry();
    let r = pull_request(&gh.url, false, 1).run(ws.path());
    assert_eq!(r.code, 1, "{r}");
    assert_eq!(r.out("verdict"), Some("fail"), "{r}");
    assert_eq!(r.out("failing-packs"), Some(r#"["packs/typo"]"#), "{r}");
    assert_eq!(r.out("check-run-url"), Some(RUN_URL), "{r}");
    assert_eq!(conclusion(&gh), "failure");
    let a = typo_annotation(&gh, &r);
    assert_eq!(a["annotation_level"], "failure", "{a}");
    let message = a["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("unknown field `licence`") && message.contains("did you mean `license`?"),
        "the hint in the message: {a}"
    );
    assert_eq!(
        a["raw_details"], "Delete the key, or correct its spelling.",
        "the rule's help: {a}"
    );
    // The summary's first pack is the failing, touched one.
    let good = r.summary.find("<code>packs/good</code>");
    let typo = r.summary.find("<code>packs/typo</code>");
    assert!(
        typo.is_some() && (good.is_none() || typo < good),
        "{}",
        r.summary
    );
}

#[test]
fn control_without_a_check_run_the_url_is_empty_and_the_verdict_stands() {
    let gh = Server::start(github("packs/typo/pack.toml"));
    let ws = registry();
    let mut ci = pull_request(&gh.url, false, 1);
    ci.set("INPUT_ANNOTATIONS", "commands");
    let r = ci.run(ws.path());
    assert_eq!(r.code, 1, "{r}");
    assert_eq!(r.out("verdict"), Some("fail"));
    assert_eq!(r.out("check-run-url"), Some(""), "{r}");
    assert!(annotations(&gh).is_empty());
}
