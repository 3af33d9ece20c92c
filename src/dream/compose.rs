//! A call's prompt, built from pieces each rendered once (docs/testing-packs.md, "Rendering";
//! docs/performance.md, "Cost a pack controls").
//!
//! The prompt is the template with each input's block in place of its placeholders, and a
//! block's data is its pieces (a session's line, a note's `--- id` and text, a turn's line)
//! joined by line feeds, defanged. Defanging works line by line, so defanging each piece alone
//! gives the same bytes as defanging the joined data. The prompt's length is therefore the
//! template's with every input empty ([`Template::base`]) plus, for each placeholder, the
//! lengths of its pieces and the line feeds between them. So:
//!
//! - a turn's line is rendered (as JSON, defanged) once per run, not once per call or per try;
//! - a `per_note = false` chunk grows session by session by adding lengths, never rendering;
//! - the budget's search for how many turns to keep adds lengths too;
//! - and the prompt that is sent is assembled once.

use std::cell::OnceCell;

use super::render::{self, defang};
use super::session::{Call, Pass, Session};
use crate::model::prompt::{Placeholder, placeholders};
use crate::model::transcript::Role;

/// The inputs a template can read, in the order [`Template::uses`] counts them.
const INPUTS: [&str; 4] = ["sessions", "notes", "turns", "human_confirmed"];

/// What a pass's template costs: its placeholders (found once), its length with every input
/// empty, and how many times each input's placeholder appears (placeholders of inputs not in
/// `reads` stay as text).
pub(super) struct Template<'a> {
    holes: Vec<Placeholder<'a>>,
    base: usize,
    uses: [usize; 4],
}

impl<'a> Template<'a> {
    pub(super) fn new(pass: &'a Pass) -> Template<'a> {
        let holes = placeholders(&pass.prompt);
        let mut uses = [0; 4];
        for p in &holes {
            if pass.reads.iter().any(|r| r == p.name)
                && let Some(i) = INPUTS.iter().position(|n| *n == p.name)
            {
                uses[i] += 1;
            }
        }
        let empty = |_: &str| String::new();
        let base = render::prompt_with(&pass.prompt, &holes, &pass.reads, &empty, true).len();
        Template { holes, base, uses }
    }
}

/// The length of pieces joined by line feeds.
fn joined(count: usize, bytes: usize) -> usize {
    bytes + count.saturating_sub(1)
}

/// Each session's turn lines, rendered and defanged the first time a call needs them.
pub(super) struct TurnLines(Vec<OnceCell<Vec<String>>>);

impl TurnLines {
    pub(super) fn new(sessions: &[Session]) -> TurnLines {
        TurnLines(sessions.iter().map(|_| OnceCell::new()).collect())
    }

    fn of<'a>(&'a self, sessions: &[Session], i: usize) -> &'a [String] {
        self.0[i].get_or_init(|| {
            sessions[i]
                .turns
                .iter()
                .map(|t| defang(&render::turn_line(t)))
                .collect()
        })
    }
}

/// A note's piece of the `notes` block: its `--- id` line and its text without the final line
/// feed, defanged.
pub(super) fn note_piece(id: &str, text: &str) -> String {
    defang(&format!(
        "--- {id}\n{}",
        text.strip_suffix('\n').unwrap_or(text)
    ))
}

/// One turn of a call: its line, and whether it is the user's.
struct TurnPiece<'a> {
    line: &'a str,
    user: bool,
}

/// A call's pieces: its sessions' lines, its notes' pieces, its turns in listing order, and
/// the turns from oldest to newest (timestamp, then place in the list; turns without one
/// first), which the budget drops first.
pub(super) struct Draft<'a> {
    sessions: Vec<String>,
    notes: Vec<String>,
    turns: Vec<TurnPiece<'a>>,
    by_age: Vec<usize>,
}

impl<'a> Draft<'a> {
    /// The call's pieces; `note_text` gives a note as it stands now.
    pub(super) fn new(
        call: &Call,
        sessions: &'a [Session],
        lines: &'a TurnLines,
        note_text: &mut dyn FnMut(&str) -> String,
    ) -> Draft<'a> {
        let mut turns = Vec::new();
        let mut times = Vec::new();
        for &i in &call.sessions {
            for (t, line) in sessions[i].turns.iter().zip(lines.of(sessions, i)) {
                turns.push(TurnPiece {
                    line,
                    user: t.role == Role::User,
                });
                times.push(t.time);
            }
        }
        let mut by_age: Vec<usize> = (0..turns.len()).collect();
        by_age.sort_by_key(|&i| (times[i].is_some(), times[i], i));
        Draft {
            sessions: call
                .sessions
                .iter()
                .map(|&i| defang(&render::session_line(&sessions[i], &call.notes)))
                .collect(),
            notes: call
                .notes
                .iter()
                .map(|id| note_piece(id, &note_text(id)))
                .collect(),
            turns,
            by_age,
        }
    }

    /// Which turns are kept when only the `keep` newest are.
    fn kept(&self, keep: usize) -> Vec<bool> {
        let mut kept = vec![true; self.turns.len()];
        let drop = self.turns.len().saturating_sub(keep);
        for &i in &self.by_age[..drop] {
            kept[i] = false;
        }
        kept
    }

    /// The prompt's length with the `keep` newest turns.
    pub(super) fn len(&self, tpl: &Template<'_>, keep: usize) -> usize {
        let kept = self.kept(keep);
        let (mut turns, mut n_turns, mut human, mut n_human) = (0, 0, 0, 0);
        for (t, _) in self.turns.iter().zip(&kept).filter(|(_, k)| **k) {
            (turns, n_turns) = (turns + t.line.len(), n_turns + 1);
            if t.user {
                (human, n_human) = (human + t.line.len(), n_human + 1);
            }
        }
        let sum = |v: &[String]| joined(v.len(), v.iter().map(String::len).sum());
        tpl.base
            + tpl.uses[0] * sum(&self.sessions)
            + tpl.uses[1] * sum(&self.notes)
            + tpl.uses[2] * joined(n_turns, turns)
            + tpl.uses[3] * joined(n_human, human)
    }

    /// The most turns that fit `budget` bytes (all of them when they do), or `None` when even
    /// none fits.
    pub(super) fn keep_within(&self, tpl: &Template<'_>, budget: u64) -> Option<usize> {
        let fits = |keep| self.len(tpl, keep) as u64 <= budget;
        let total = self.turns.len();
        if fits(total) {
            return Some(total);
        }
        if !fits(0) {
            return None;
        }
        let (mut lo, mut hi) = (0usize, total); // fits(lo); fits(hi) is false
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if fits(mid) { lo = mid } else { hi = mid }
        }
        Some(lo)
    }

    /// The prompt with the `keep` newest turns, assembled once; each input's data is joined
    /// once, however many times the template names it.
    pub(super) fn render(&self, pass: &Pass, tpl: &Template<'_>, keep: usize) -> String {
        let kept = self.kept(keep);
        let turns = || {
            self.turns
                .iter()
                .zip(&kept)
                .filter(|(_, k)| **k)
                .map(|(t, _)| t)
        };
        let joined: [OnceCell<String>; 4] = Default::default();
        let data = |name: &str| {
            let Some(i) = INPUTS.iter().position(|n| *n == name) else {
                return String::new();
            };
            let text = joined[i].get_or_init(|| match i {
                0 => self.sessions.join("\n"),
                1 => self.notes.join("\n"),
                2 => turns().map(|t| t.line).collect::<Vec<_>>().join("\n"),
                _ => turns()
                    .filter(|t| t.user)
                    .map(|t| t.line)
                    .collect::<Vec<_>>()
                    .join("\n"),
            });
            text.clone()
        };
        render::prompt_with(&pass.prompt, &tpl.holes, &pass.reads, &data, true)
    }
}

/// The length a `per_note = false` chunk's prompt would have with every turn, grown one
/// session at a time: each session adds its line, its turns and the candidate notes no
/// earlier session of the chunk declared.
pub(super) struct Growing<'a> {
    tpl: &'a Template<'a>,
    cands: &'a [String],
    /// Each candidate's place in `cands`, and whether the chunk holds it yet.
    index: std::collections::HashMap<&'a str, usize>,
    notes_in: Vec<bool>,
    /// Per input: its pieces and their bytes so far.
    sums: [(usize, usize); 4],
}

impl<'a> Growing<'a> {
    pub(super) fn new(tpl: &'a Template<'a>, cands: &'a [String]) -> Growing<'a> {
        Growing {
            tpl,
            cands,
            index: cands
                .iter()
                .enumerate()
                .map(|(n, id)| (id.as_str(), n))
                .collect(),
            notes_in: vec![false; cands.len()],
            sums: [(0, 0); 4],
        }
    }

    /// Adds session `i` and gives the chunk's prompt length.
    pub(super) fn add(
        &mut self,
        sessions: &[Session],
        lines: &TurnLines,
        i: usize,
        note_text: &mut dyn FnMut(&str) -> String,
    ) -> usize {
        let s = &sessions[i];
        let mut add = |k: usize, bytes: usize| {
            self.sums[k].0 += 1;
            self.sums[k].1 += bytes;
        };
        // A session's line names its candidate notes: the same in every chunk it is in.
        add(0, defang(&render::session_line(s, self.cands)).len());
        for (t, line) in s.turns.iter().zip(lines.of(sessions, i)) {
            add(2, line.len());
            if t.role == Role::User {
                add(3, line.len());
            }
        }
        for id in &s.notes {
            if let Some(&n) = self.index.get(id.as_str())
                && !self.notes_in[n]
            {
                self.notes_in[n] = true;
                add(1, note_piece(id, &note_text(id)).len());
            }
        }
        self.tpl.base
            + (0..4)
                .map(|k| self.tpl.uses[k] * joined(self.sums[k].0, self.sums[k].1))
                .sum::<usize>()
    }
}

#[cfg(test)]
#[path = "compose_tests.rs"]
mod tests;
