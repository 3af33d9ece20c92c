//! Renderers: pure functions of the reports, no decisions and no I/O but the writer.

pub mod text;

use crate::core::escape;
use crate::outcome::PackReport;

pub mod github;
pub mod json;
pub mod junit;
pub mod machine;
pub mod rules;
pub mod sarif;

/// `--print-prompts` (for standard error): every prompt each case sent, in the order sent, each
/// under a label line `# <pack>/<case>: pass <pass>, call <n>, model` (or `reviewer for proposal
/// <m>`), its text made safe for a terminal and a CI log ([`escape::block`]).
pub fn prompts(reports: &[PackReport]) -> String {
    let mut out = String::new();
    for r in reports {
        for c in &r.cases {
            let head = format!("# {}/{}: pass {}", r.display_name(), c.name, c.pass);
            let head = escape::line(&head);
            let mut reviews = c.review_prompts.iter().peekable();
            for (i, p) in c.prompts.iter().enumerate() {
                let call = i + 1;
                out.push_str(&format!("{head}, call {call}, model\n"));
                push_block(&mut out, p);
                while let Some((_, m, rp)) = reviews.next_if(|(n, _, _)| *n == call) {
                    out.push_str(&format!("{head}, call {call}, reviewer for proposal {m}\n"));
                    push_block(&mut out, rp);
                }
            }
        }
    }
    out
}

fn push_block(out: &mut String, text: &str) {
    out.push_str(&escape::block(text));
    if !out.ends_with('\n') {
        out.push('\n');
    }
}
