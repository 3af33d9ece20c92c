//! The text format of hippo's page "Writing a pack", byte for byte.

use crate::core::Severity;
use crate::core::escape;
use crate::outcome::{Mode, PackReport};
use std::fmt::Write;

/// `check`: `skipped`, `error`, `warning`, then `ok <name> <version>` when there is no error.
/// `test`: the error lines alone when validation failed; otherwise one line per case.
pub fn render(reports: &[PackReport], mode: Mode) -> String {
    let mut out = String::new();
    for r in reports {
        if mode == Mode::Check {
            for s in &r.skipped {
                line(&mut out, &format!("skipped {}{}", r.prefix, s));
            }
        }
        for d in &r.diagnostics {
            if mode == Mode::Test && d.severity == Severity::Warning {
                continue;
            }
            line(
                &mut out,
                &format!("{} {}", d.severity.as_str(), d.text(&r.prefix)),
            );
        }
        if r.errors() > 0 {
            continue;
        }
        match mode {
            Mode::Check => line(
                &mut out,
                &format!(
                    "ok {} {}",
                    r.name.as_deref().unwrap_or(""),
                    r.version.as_deref().unwrap_or("")
                ),
            ),
            Mode::Test => {
                if let Some(name) = &r.no_case {
                    line(&mut out, &format!("error no case named {name}"));
                }
                for c in &r.cases {
                    if c.failures.is_empty() {
                        line(&mut out, &format!("ok {}/{}", r.display_name(), c.name));
                    }
                    for f in &c.failures {
                        line(
                            &mut out,
                            &format!("FAIL {}/{}: {}", r.display_name(), c.name, f.message),
                        );
                    }
                }
            }
        }
    }
    out
}

/// One line, with pack text escaped so it cannot break the line or hide characters.
fn line(out: &mut String, s: &str) {
    let _ = writeln!(out, "{}", escape::line(s));
}
