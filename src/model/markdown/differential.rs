//! pulldown-cmark's reading against comrak's (a port of GitHub's cmark-gfm), for what the rules
//! read: headings, HTML comments, table rows, links with their destinations and titles, and the
//! reference definitions that render as nothing. Over every Markdown file of the repository's
//! packs and every example of the CommonMark spec (`commonmark-spec`, installed by .ci/run in
//! .ci/node; docs/checks.md, "Markdown"). A disagreement fails the test unless it is listed in
//! `reviewed.txt` beside this file, and each listed one has a test in `tests.rs` that the rule's
//! verdict does not depend on it.

use super::{HiddenKind, options, read};
use comrak::nodes::{AstNode, NodeValue};
use std::collections::BTreeSet;
use std::path::Path;

/// What one parser read, each item with its 1-based line.
#[derive(Debug, Default, PartialEq, Eq)]
struct Reading {
    headings: Vec<(usize, u8, String)>,
    comments: BTreeSet<usize>,
    rows: Vec<(usize, usize)>,
    links: Vec<(String, String)>,
}

fn line_of(text: &str, at: usize) -> usize {
    text[..at].matches('\n').count() + 1
}

/// The reading of `model::markdown::read`, with the cells and links of the same parser's events.
fn pulldown(text: &str) -> Reading {
    use pulldown_cmark::{Event, Parser, Tag, TagEnd};
    let md = read(text);
    let mut r = Reading {
        headings: (md.headings.iter())
            .map(|h| (line_of(text, h.span.start), h.level, h.text.clone()))
            .collect(),
        comments: (md.hidden.iter())
            .filter(|h| h.kind == HiddenKind::Comment)
            .map(|h| line_of(text, h.span.start))
            .collect(),
        ..Reading::default()
    };
    let mut cells = 0;
    for (event, range) in Parser::new_ext(text, options()).into_offset_iter() {
        match event {
            Event::Start(Tag::TableHead | Tag::TableRow) => cells = 0,
            Event::Start(Tag::TableCell) => cells += 1,
            Event::End(TagEnd::TableHead | TagEnd::TableRow) => {
                r.rows.push((line_of(text, range.start), cells));
            }
            Event::Start(
                Tag::Link {
                    dest_url, title, ..
                }
                | Tag::Image {
                    dest_url, title, ..
                },
            ) => {
                r.links.push((dest_url.to_string(), title.to_string()));
            }
            _ => {}
        }
    }
    let rows: Vec<usize> = md
        .table_rows
        .iter()
        .map(|s| line_of(text, s.start))
        .collect();
    assert_eq!(rows, r.rows.iter().map(|r| r.0).collect::<Vec<_>>());
    r
}

fn comrak_options() -> comrak::Options<'static> {
    let mut o = comrak::Options::default();
    o.extension.table = true;
    o
}

/// The text of a node's inline descendants, as a heading's text.
fn inline_text<'a>(node: &'a AstNode<'a>) -> String {
    let mut s = String::new();
    for d in node.descendants() {
        match &d.data.borrow().value {
            NodeValue::Text(t) => s.push_str(t),
            NodeValue::Code(c) => s.push_str(&c.literal),
            NodeValue::SoftBreak | NodeValue::LineBreak => s.push('\n'),
            _ => {}
        }
    }
    s.trim().to_string()
}

fn comrak(text: &str) -> (Reading, BTreeSet<usize>) {
    let arena = comrak::Arena::new();
    let root = comrak::parse_document(&arena, text, &comrak_options());
    let mut r = Reading::default();
    // The lines where a block that renders starts (a definition renders nothing).
    let mut rendered = BTreeSet::new();
    for node in root.descendants() {
        let data = node.data.borrow();
        let line = data.sourcepos.start.line;
        match &data.value {
            NodeValue::Heading(h) => {
                r.headings.push((line, h.level, inline_text(node)));
                rendered.insert(line);
            }
            NodeValue::HtmlInline(html) if html.starts_with("<!--") => {
                r.comments.insert(line);
            }
            NodeValue::HtmlBlock(b) => {
                for (i, _) in b.literal.match_indices("<!--") {
                    r.comments
                        .insert(line + b.literal[..i].matches('\n').count());
                }
            }
            NodeValue::TableRow(_) => r.rows.push((line, node.children().count())),
            NodeValue::Link(l) | NodeValue::Image(l) => {
                r.links.push((l.url.clone(), l.title.clone()));
            }
            NodeValue::Paragraph => {
                rendered.insert(line);
            }
            _ => {}
        }
    }
    (r, rendered)
}

/// Where the two readings of one text disagree, one line each (empty: they agree).
fn disagreements(name: &str, text: &str) -> Vec<String> {
    let ours = pulldown(text);
    let (theirs, rendered) = comrak(text);
    let mut out = Vec::new();
    let mut differ = |what: &str, a: String, b: String| {
        if a != b {
            out.push(format!("{name}: {what}: pulldown-cmark {a} comrak {b}"));
        }
    };
    differ(
        "headings",
        format!("{:?}", ours.headings),
        format!("{:?}", theirs.headings),
    );
    differ(
        "comments",
        format!("{:?}", ours.comments),
        format!("{:?}", theirs.comments),
    );
    differ(
        "table rows",
        format!("{:?}", ours.rows),
        format!("{:?}", theirs.rows),
    );
    differ(
        "links",
        format!("{:?}", ours.links),
        format!("{:?}", theirs.links),
    );
    for h in read(text).hidden {
        let line = line_of(text, h.span.start);
        if h.kind == HiddenKind::UnusedDefinition && rendered.contains(&line) {
            out.push(format!(
                "{name}: definition at line {line} renders in comrak"
            ));
        }
    }
    out
}

/// The examples of the CommonMark spec's text: `(number, markdown)`, `→` read as a tab.
fn spec_examples(spec: &str) -> Vec<(usize, String)> {
    let fence = "````````````````````````````````";
    let mut out = Vec::new();
    let mut lines = spec.lines();
    while let Some(l) = lines.next() {
        if l.starts_with(fence) && l.ends_with(" example") {
            let mut md = String::new();
            for l in lines.by_ref() {
                if l == "." {
                    break;
                }
                md.push_str(l);
                md.push('\n');
            }
            for l in lines.by_ref() {
                if l.starts_with(fence) {
                    break;
                }
            }
            out.push((out.len() + 1, md.replace('→', "\t")));
        }
    }
    out
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The reviewed disagreements: one a line, `#` comments aside.
fn reviewed() -> BTreeSet<String> {
    let text = std::fs::read_to_string(root().join("src/model/markdown/reviewed.txt"))
        .expect("src/model/markdown/reviewed.txt");
    (text.lines())
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// Every Markdown file under examples/ and tests/packs/, by repository path.
fn repository_markdown() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for top in ["examples", "tests/packs"] {
        for e in walkdir::WalkDir::new(root().join(top)).sort_by_file_name() {
            let e = e.expect("walk");
            if e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "md") {
                let rel = e.path().strip_prefix(root()).expect("under root");
                let text = std::fs::read_to_string(e.path()).unwrap_or_default();
                out.push((rel.display().to_string(), text));
            }
        }
    }
    out
}

fn check_all(docs: &[(String, String)], listed: &BTreeSet<String>) -> Vec<String> {
    (docs.iter())
        .flat_map(|(name, text)| disagreements(name, text))
        .filter(|d| !listed.contains(d))
        .collect()
}

#[test]
fn the_repository_packs_read_alike() {
    let docs = repository_markdown();
    assert!(docs.len() > 20, "the packs' Markdown files: {}", docs.len());
    let new = check_all(&docs, &reviewed());
    assert!(
        new.is_empty(),
        "unreviewed disagreements:\n{}",
        new.join("\n")
    );
}

#[test]
#[ignore = "needs node (npm ci in .ci/node)"]
fn the_spec_examples_read_alike() {
    let path = root().join(".ci/node/node_modules/commonmark-spec/spec.txt");
    let spec = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "needs node: {} is missing ({e}): run npm ci --prefix .ci/node",
            path.display()
        )
    });
    let docs: Vec<(String, String)> = (spec_examples(&spec).into_iter())
        .map(|(n, md)| (format!("spec example {n}"), md))
        .collect();
    assert!(docs.len() > 600, "the spec's examples: {}", docs.len());
    let new = check_all(&docs, &reviewed());
    assert!(
        new.is_empty(),
        "unreviewed disagreements:\n{}",
        new.join("\n")
    );
}

#[test]
fn a_disagreement_is_caught() {
    // Control: the comparison sees a difference where there is one.
    let (mut theirs, _) = comrak("## Role\n");
    assert_eq!(pulldown("## Role\n"), theirs);
    theirs.headings[0].2 = "Rule".into();
    assert_ne!(pulldown("## Role\n"), theirs);
    assert!(check_all(&[("x".into(), "## Role\n".into())], &BTreeSet::new()).is_empty());
    // Every listed disagreement still happens (a stale line is removed, not kept).
    let spec =
        std::fs::read_to_string(root().join(".ci/node/node_modules/commonmark-spec/spec.txt"));
    if let Ok(spec) = spec {
        let mut all: Vec<(String, String)> = (spec_examples(&spec).into_iter())
            .map(|(n, md)| (format!("spec example {n}"), md))
            .collect();
        all.extend(repository_markdown());
        let found: BTreeSet<String> = all.iter().flat_map(|(n, t)| disagreements(n, t)).collect();
        let listed = reviewed();
        let stale: Vec<&String> = listed.iter().filter(|l| !found.contains(*l)).collect();
        assert!(stale.is_empty(), "listed but no longer found: {stale:?}");
    }
}

/// GitHub's table extension, which the CommonMark spec does not hold: the shapes of the GFM
/// spec's table section (leading and trailing pipes optional, alignment, escaped pipes, pipes in
/// code spans, a short and a long row, a table ended by a blank line or a block).
const TABLES: &[&str] = &[
    "| foo | bar |\n| --- | --- |\n| baz | bim |\n",
    "| abc | defghi |\n:-: | -----------:\nbar | baz\n",
    "| f\\|oo  |\n| ------ |\n| b `\\|` az |\n| b **\\|** im |\n",
    "| abc | def |\n| --- | --- |\n| bar | baz |\n> bar\n",
    "| abc | def |\n| --- | --- |\n| bar | baz |\nbar\n\nbar\n",
    "| abc | def |\n| --- |\n| bar |\n",
    "| abc | def |\n| --- | --- |\n| bar |\n| bar | baz | boo |\n",
    "| abc | def |\n| --- | --- |\n",
    "| shell | file |\n|---|---|\n| bash | ~/.bashrc |\n| `a|b` | sh |\n",
    "> | a |\n> |---|\n> | b |\n",
    "- | a |\n  |---|\n  | b |\n",
];

#[test]
fn tables_read_alike() {
    let docs: Vec<(String, String)> = (TABLES.iter().enumerate())
        .map(|(i, t)| (format!("table {}", i + 1), t.to_string()))
        .collect();
    let new = check_all(&docs, &reviewed());
    assert!(
        new.is_empty(),
        "unreviewed disagreements:\n{}",
        new.join("\n")
    );
    assert!(
        pulldown(TABLES[0]).rows.len() == 2,
        "control: rows are read"
    );
}
