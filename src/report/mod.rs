//! Renderers: pure functions of the reports, no decisions and no I/O but the writer.

pub mod text;

use crate::outcome::PackReport;

pub mod github;
pub mod json;
pub mod junit;
pub mod machine;
pub mod rules;
pub mod sarif;

/// `--print-prompts`: every prompt each case sent, framed by the case.
pub fn prompts(reports: &[PackReport]) -> String {
    let mut out = String::new();
    for r in reports {
        for c in &r.cases {
            for (i, p) in c.prompts.iter().enumerate() {
                out.push_str(&format!(
                    "=== {}/{} prompt {} ===\n{}\n",
                    r.display_name(),
                    c.name,
                    i + 1,
                    p
                ));
            }
        }
    }
    out
}
