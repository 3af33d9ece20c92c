//! What an adopter copies: the example workflows and the docs' snippets (docs/action.md,
//! "Adopting the Action" and "Pins, and where each was verified"). Checked statically, since
//! no test can run a workflow or ask GitHub what is current: every example that runs on
//! `pull_request` runs on `merge_group` too and checks out the whole history; each names the
//! check a ruleset requires, which is its job's; every action pin is the one the table in
//! docs/action.md gives, and the table carries its date; `SSL_CERT_FILE` never points into the
//! workspace.

use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(rel: &str) -> String {
    std::fs::read_to_string(root().join(rel)).unwrap()
}

fn files_under(dir: &str, ext: &str) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    out.sort();
    out
}

/// The keys of a workflow's `on:` section.
fn events(workflow: &str) -> Vec<String> {
    let Some(start) = workflow.find("\non:\n") else {
        return Vec::new();
    };
    workflow[start + 5..]
        .lines()
        .take_while(|l| l.starts_with(' ') || l.is_empty())
        .filter_map(|l| l.strip_prefix("  "))
        .filter(|l| !l.starts_with(' '))
        .filter_map(|l| l.split(':').next())
        .map(str::to_string)
        .collect()
}

/// Each `actions/checkout` step of a workflow: its lines, from `uses:` to the next step.
fn checkouts(workflow: &str) -> Vec<String> {
    let mut out = Vec::new();
    let lines: Vec<&str> = workflow.lines().collect();
    for (i, l) in lines.iter().enumerate() {
        if l.trim_start().starts_with("- uses: actions/checkout@") {
            let step: Vec<&str> = lines[i + 1..]
                .iter()
                .take_while(|n| !n.trim_start().starts_with("- ") && n.starts_with("        "))
                .copied()
                .collect();
            out.push(step.join("\n"));
        }
    }
    out
}

/// What an example says is not right for a merge queue, if anything.
fn merge_queue_gaps(workflow: &str) -> Vec<String> {
    let on = events(workflow);
    if !on.iter().any(|e| e == "pull_request") {
        return Vec::new();
    }
    let mut gaps = Vec::new();
    if !on.iter().any(|e| e == "merge_group") {
        gaps.push("no merge_group".to_string());
    }
    let steps = checkouts(workflow);
    if steps.is_empty() {
        gaps.push("no checkout".to_string());
    }
    for step in steps {
        // The whole history, or on a merge group (`'0'` is a string: truthy, unlike `0`).
        let history = |l: &str| {
            let l = l.trim();
            l.starts_with("fetch-depth: 0")
                || l.starts_with("fetch-depth: ${{ github.event_name == 'merge_group' && '0' || ")
        };
        if !step.lines().any(history) {
            gaps.push("a checkout without fetch-depth: 0".to_string());
        }
    }
    gaps
}

#[test]
fn every_example_with_pull_request_runs_on_merge_group_with_the_history() {
    let examples = files_under("examples/workflows", "yml");
    assert!(examples.len() >= 4, "{examples:?}");
    for f in &examples {
        let text = std::fs::read_to_string(f).unwrap();
        assert!(events(&text).iter().any(|e| e == "pull_request"), "{f:?}");
        assert_eq!(merge_queue_gaps(&text), Vec::<String>::new(), "{f:?}");
    }
    // Controls: an example without merge_group or the history, and one without pull_request.
    let old = "name: x\non:\n  pull_request:\n  push:\n    branches: [main]\n\njobs:\n  a:\n    steps:\n      - uses: actions/checkout@x # v1\n        with:\n          persist-credentials: false\n";
    assert_eq!(
        merge_queue_gaps(old),
        ["no merge_group", "a checkout without fetch-depth: 0"]
    );
    let push_only = "name: x\non:\n  push:\n\njobs: {}\n";
    assert!(merge_queue_gaps(push_only).is_empty());
}

/// The names of a workflow's jobs as their checks show them: each job's `name:` (the job's key
/// without one), a `${{ matrix.shard }}` expanded over the matrix's `shard: [...]`.
fn check_names(workflow: &str) -> Vec<String> {
    let body = &workflow[workflow.find("\njobs:\n").expect("jobs:") + 7..];
    let mut names = Vec::new();
    let mut job: Option<(String, Option<String>)> = None;
    let flush = |job: Option<(String, Option<String>)>, names: &mut Vec<String>| {
        if let Some((key, name)) = job {
            names.push(name.unwrap_or(key));
        }
    };
    for l in body.lines() {
        if let Some(key) = l
            .strip_prefix("  ")
            .filter(|k| !k.starts_with([' ', '#']) && k.ends_with(':'))
        {
            flush(job.take(), &mut names);
            job = Some((key.trim_end_matches(':').to_string(), None));
        } else if let (Some(n), Some((_, name))) = (l.strip_prefix("    name: "), job.as_mut()) {
            *name = Some(n.trim().to_string());
        }
    }
    flush(job, &mut names);
    let shards: Vec<String> = workflow
        .lines()
        .find_map(|l| l.trim().strip_prefix("shard: ["))
        .map(|v| {
            v.trim_end_matches(']')
                .split(',')
                .map(|s| s.trim().to_string())
                .collect()
        })
        .unwrap_or_default();
    names
        .into_iter()
        .flat_map(|n| {
            if n.contains("${{ matrix.shard }}") {
                shards
                    .iter()
                    .map(|s| n.replace("${{ matrix.shard }}", s))
                    .collect()
            } else {
                vec![n]
            }
        })
        .collect()
}

/// The checks the workflow's `# Required check(s): ...` line names, in backquotes.
fn required_named(workflow: &str) -> Vec<String> {
    let Some(line) = workflow
        .lines()
        .find(|l| l.starts_with("# Required check: ") || l.starts_with("# Required checks: "))
    else {
        return Vec::new();
    };
    line.split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

#[test]
fn every_example_names_its_jobs_check_as_the_one_to_require() {
    for f in files_under("examples/workflows", "yml") {
        let text = std::fs::read_to_string(&f).unwrap();
        let named = required_named(&text);
        assert!(!named.is_empty(), "{f:?} names no required check");
        assert_eq!(named, check_names(&text), "{f:?}");
        assert!(
            named.iter().all(|n| !n.ends_with(" findings")),
            "{f:?}: the check run is not the one to require"
        );
    }
    let sharded = read("examples/workflows/sharded.yml");
    assert_eq!(check_names(&sharded).len(), 4);
    // Control: naming the check run, or another job, is told apart.
    let wrong = "# Required check: `hippo-packs findings`.\non: push\njobs:\n  packs:\n    name: hippo-packs\n    steps: []\n";
    assert_ne!(required_named(wrong), check_names(wrong));
    assert_eq!(check_names(wrong), ["hippo-packs"]);
}

/// The pins table of docs/action.md: its date, and action → (release, commit, runs on).
type Pins = (
    Option<String>,
    std::collections::BTreeMap<String, (String, String, String)>,
);

fn pins_table(doc: &str) -> Pins {
    let date = regex::Regex::new(r"(?m)^Pins checked: (\d{4}-\d{2}-\d{2}) ").unwrap();
    let date = date.captures(doc).map(|c| c[1].to_string());
    let row = regex::Regex::new(
        r"(?m)^\| `([\w.-]+/[\w./-]+)` \| (v\d+\.\d+\.\d+) \| `([0-9a-f]{40})` \| ([^|]+) \|$",
    )
    .unwrap();
    let rows = row
        .captures_iter(doc)
        .map(|c| {
            (
                c[1].to_string(),
                (c[2].to_string(), c[3].to_string(), c[4].trim().to_string()),
            )
        })
        .collect();
    (date, rows)
}

/// Every `uses: <action>@<ref> # <version>` of a text but our own action and `./`, with the
/// line it stands on.
fn pins_in(text: &str) -> Vec<(String, String, String)> {
    let uses = regex::Regex::new(r"uses: ([\w.-]+/[\w./-]+)@(\S+)(?:\s+#\s*(\S+))?").unwrap();
    uses.captures_iter(text)
        .filter(|c| !c[1].ends_with("/hippo-packs"))
        .map(|c| {
            let version = c.get(3).map(|m| m.as_str().to_string()).unwrap_or_default();
            (c[1].to_string(), c[2].to_string(), version)
        })
        .collect()
}

/// The pins of `text` that the table does not give.
fn off_table(text: &str, table: &Pins) -> Vec<String> {
    pins_in(text)
        .into_iter()
        .filter(|(action, at, version)| {
            table
                .1
                .get(action)
                .is_none_or(|(v, commit, _)| commit != at || v != version)
        })
        .map(|(a, at, v)| format!("{a}@{at} # {v}"))
        .collect()
}

#[test]
fn every_action_pin_is_the_tables_and_the_table_has_its_date() {
    let doc = read("docs/action.md");
    let table = pins_table(&doc);
    let date = table
        .0
        .clone()
        .expect("the table's date: `Pins checked: YYYY-MM-DD`");
    assert!(date.as_str() >= "2026-01-01", "{date}");
    assert!(table.1.len() >= 5, "{:?}", table.1);
    for (action, (_, _, runs)) in &table.1 {
        assert!(
            !runs.contains("node20") && !runs.contains("node16"),
            "{action} runs on {runs}, a runtime GitHub retires"
        );
    }
    let mut files: Vec<PathBuf> = files_under(".github/workflows", "yml");
    files.extend(files_under("examples/workflows", "yml"));
    files.extend(files_under("docs", "md"));
    files.push(root().join("README.md"));
    let mut seen = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        seen += pins_in(&text).len();
        assert_eq!(off_table(&text, &table), Vec::<String>::new(), "{f:?}");
    }
    assert!(seen >= 15, "{seen} pins");
    // Controls: a checkout release the table does not give, an action it lacks, a pin without
    // its version, and a table without its date.
    for wrong in [
        "      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2\n",
        "      - uses: actions/cache@0057852bfaa89a56745cba8c7296529d2fc39830 # v4.3.0\n",
        "      - uses: actions/checkout@3d3c42e5aac5ba805825da76410c181273ba90b1\n",
    ] {
        assert_eq!(off_table(wrong, &table).len(), 1, "{wrong}");
    }
    assert_eq!(pins_table(&doc.replace("Pins checked: ", "Pins: ")).0, None);
}

/// The paths an `SSL_CERT_FILE` (or `SSL_CERT_DIR`) is given in a text.
fn cert_paths(text: &str) -> Vec<String> {
    let set = regex::Regex::new(r"SSL_CERT_(?:FILE|DIR)(?::\s*|=)([^\s`'\x22),]+)").unwrap();
    set.captures_iter(text).map(|c| c[1].to_string()).collect()
}

#[test]
fn ssl_cert_file_examples_point_under_the_home_not_the_workspace() {
    let mut files: Vec<PathBuf> = files_under("docs", "md");
    files.push(root().join("README.md"));
    files.extend(files_under("examples/workflows", "yml"));
    let mut seen = 0;
    for f in &files {
        for path in cert_paths(&std::fs::read_to_string(f).unwrap()) {
            if !path.starts_with('/') {
                continue;
            }
            seen += 1;
            assert!(
                path.starts_with("/github/home/"),
                "{f:?}: SSL_CERT_FILE {path} is not under /github/home (a pull request controls the workspace)"
            );
        }
    }
    assert!(seen >= 1, "docs/action.md gives an example");
    // Control: a path in the workspace is told apart.
    assert_eq!(
        cert_paths("`env: SSL_CERT_FILE: /github/workspace/.github/ghes-ca.pem` on the step"),
        ["/github/workspace/.github/ghes-ca.pem"]
    );
}
