//! What the model receives, base against head (docs/action.md, "The review"): for each touched
//! pass pack, every prompt its fixture cases render (the model's and the reviewer's, as `test`'s
//! engine sent them: [`super::prompts::labelled`]), at the base and at the head, as one unified
//! diff per case and call, in the job summary under `<details>`.
//!
//! A prompt is shown as a log shows it ([`crate::core::escape::block`]: every invisible or
//! control character as `U+XXXX`, so a U+200B that GitHub's rendered diff hides is seen) and with
//! every secret masked as the other formats mask it (`ghp_…[github-pat]`). Each diff sits in a
//! code fence longer than any run of backticks in it, so pack text cannot close it. Capped at
//! [`PACK_CAP`] bytes a pack and the run's room (at most [`RUN_CAP`]); what does not fit is
//! counted.

use std::collections::BTreeMap;

use super::prompts::labelled;
use super::summary::md;
use crate::core::escape;
use crate::outcome::PackReport;

/// The most one pack's diffs take in the summary, in bytes.
pub(crate) const PACK_CAP: usize = 40 * 1024;
/// The most every pack's diffs take together, in bytes.
pub(crate) const RUN_CAP: usize = 400 * 1024;

/// One touched pass pack: its folder from the repository root, and its reports at the base
/// (`None`: the base has no such pack, or none was read) and at the head, tested with their
/// prompts kept.
pub(crate) struct Pair<'a> {
    pub(crate) folder: &'a str,
    pub(crate) base: Option<&'a PackReport>,
    pub(crate) head: &'a PackReport,
}

/// A pack's prompts by case and call file name (`call-1-model.txt`), in order.
fn prompts(r: Option<&PackReport>) -> BTreeMap<(String, String), String> {
    let mut out = BTreeMap::new();
    for r in r.into_iter() {
        for c in &r.cases {
            for p in labelled(r, c) {
                out.insert((c.name.clone(), p.file), shown(p.text));
            }
        }
    }
    out
}

/// A prompt as the diff shows it: secrets masked, then every invisible character as `U+XXXX`.
fn shown(text: &str) -> String {
    let mut masked = String::with_capacity(text.len());
    let mut at = 0;
    for m in crate::secrets::matches_bytes(text.as_bytes()) {
        let (Some(before), Some(secret)) = (
            text.get(at..m.span.start),
            text.get(m.span.start..m.span.end),
        ) else {
            continue;
        };
        masked.push_str(before);
        masked.push_str(&crate::rules::redaction::masked(m.kind, secret));
        at = m.span.end;
    }
    masked.push_str(text.get(at..).unwrap_or_default());
    escape::block(&masked)
}

/// A fence of backticks longer than any run of them in `text` (at least three).
fn fence(text: &str) -> String {
    let longest = text
        .split(|c| c != '`')
        .map(str::len)
        .max()
        .unwrap_or_default();
    "`".repeat((longest + 1).max(3))
}

/// One diff's block: the call's label, then the unified diff fenced.
fn diff_block(case: &str, file: &str, base: &str, head: &str) -> String {
    let diff = similar::TextDiff::from_lines(base, head)
        .unified_diff()
        .context_radius(3)
        .header("base", "head")
        .to_string();
    let f = fence(&diff);
    let call = file.trim_end_matches(".txt");
    format!(
        "<code>{}</code>, {}:\n\n{f}diff\n{diff}{}{f}\n\n",
        md(case),
        md(call),
        if diff.ends_with('\n') { "" } else { "\n" }
    )
}

/// The section of one pack, at most `room` bytes; how many diffs it left out.
fn pack_section(p: &Pair<'_>, room: usize) -> (String, usize) {
    let folder = md(if p.folder.is_empty() { "." } else { p.folder });
    if p.head.cases.is_empty() && p.head.errors() > 0 {
        let line = format!(
            "- <code>{folder}</code> has errors, so its cases did not run: nothing shows what the model receives.\n"
        );
        return (line, 0);
    }
    if p.head.cases.is_empty() && p.head.case_names.is_empty() {
        let line = format!(
            "- <code>{folder}</code> has no fixture case: nothing shows what the model receives.\n"
        );
        return (line, 0);
    }
    let (base, head) = (prompts(p.base), prompts(Some(p.head)));
    let mut keys: Vec<&(String, String)> = base.keys().chain(head.keys()).collect();
    keys.sort();
    keys.dedup();
    let (mut body, mut changed, mut left) = (String::new(), 0usize, 0usize);
    let room = room.min(PACK_CAP);
    for k in &keys {
        let (b, h) = (base.get(*k), head.get(*k));
        if b == h {
            continue;
        }
        changed += 1;
        let block = diff_block(&k.0, &k.1, b.map_or("", |s| s), h.map_or("", |s| s));
        if left == 0 && body.len() + block.len() <= room {
            body.push_str(&block);
        } else {
            left += 1;
        }
    }
    if changed == 0 {
        let line = format!(
            "- <code>{folder}</code>: none of its {} prompts changed.\n",
            keys.len()
        );
        return (line, 0);
    }
    let what = match p.base {
        None => "against no base (a new pack, or the base was not read)",
        Some(_) => "base against head",
    };
    let mut out = format!(
        "<details><summary><code>{folder}</code>: {changed} of {} prompts changed, {what}</summary>\n\n",
        keys.len()
    );
    out.push_str(&body);
    if left > 0 {
        out.push_str(&format!(
            "{left} more changed {} not shown (at most {} KB a pack, {} KB a run).\n\n",
            if left == 1 { "prompt" } else { "prompts" },
            PACK_CAP / 1024,
            RUN_CAP / 1024
        ));
    }
    out.push_str("</details>\n");
    (out, left)
}

/// The summary's section: what the model receives, base against head, for each pair, in at most
/// `room` bytes (and [`RUN_CAP`]).
pub(crate) fn render(pairs: &[Pair<'_>], room: usize) -> String {
    if pairs.is_empty() {
        return String::new();
    }
    let room = room.min(RUN_CAP);
    let mut out = String::from("\n### What the model receives, base against head\n\n");
    let mut packs_left = 0usize;
    for p in pairs {
        let left_room = room.saturating_sub(out.len());
        let (section, _) = pack_section(p, left_room);
        if packs_left == 0 && out.len() + section.len() <= room {
            out.push_str(&section);
        } else {
            packs_left += 1;
        }
    }
    if packs_left > 0 {
        out.push_str(&format!(
            "\n{packs_left} more {} not shown (at most {} KB a run).\n",
            if packs_left == 1 { "pack" } else { "packs" },
            RUN_CAP / 1024
        ));
    }
    out
}

#[cfg(test)]
mod tests;
