//! `--print-prompts` and `--prompts-dir`: every prompt a case sent, the pass's model's and the
//! reviewer's, each under a label line (docs/output-formats.md):
//! `# <pack>/<case>: pass <pass>, call <n>, model` or
//! `# <pack>/<case>: pass <pass>, call <n>, reviewer for proposal <m>`.

use std::path::Path;

use crate::core::{escape, safe_write};
use crate::outcome::{CaseResult, PackReport};

/// One prompt: the label (without `# `), a file name for `--prompts-dir`, and the text.
pub(crate) struct Labelled<'a> {
    pub(crate) label: String,
    pub(crate) file: String,
    pub(crate) text: &'a str,
}

/// Every prompt of a case in the order it was sent: each call's model prompt, then the
/// reviewer's prompts for that call.
pub(crate) fn labelled<'a>(r: &PackReport, c: &'a CaseResult) -> Vec<Labelled<'a>> {
    let head = format!("{}: pass {}", r.case_label(&c.name), c.pass);
    let mut out = Vec::new();
    for (i, p) in c.prompts.iter().enumerate() {
        let call = i + 1;
        out.push(Labelled {
            label: format!("{head}, call {call}, model"),
            file: format!("call-{call}-model.txt"),
            text: p,
        });
        for rp in c.review_prompts.iter().filter(|rp| rp.call == call) {
            out.push(Labelled {
                label: format!("{head}, call {call}, reviewer for proposal {}", rp.proposal),
                file: format!("call-{call}-reviewer-{}.txt", rp.proposal),
                text: &rp.text,
            });
        }
    }
    out
}

/// All prompts of a run, for standard error.
pub(crate) fn render(reports: &[PackReport]) -> String {
    let mut out = String::new();
    for r in reports {
        for c in &r.cases {
            for p in labelled(r, c) {
                out.push_str(&format!("# {}\n", escape::line(&p.label)));
                out.push_str(&block(p.text));
                if !p.text.ends_with('\n') {
                    out.push('\n');
                }
            }
        }
    }
    out
}

/// Pack text for a terminal or a log, line by line: tab and line feed kept, every other
/// control, invisible or ignorable character shown as `U+XXXX`, and no line GitHub's runner would
/// read as a workflow command ([`escape::block`]; docs/security.md, "Output hygiene").
pub(crate) fn block(text: &str) -> String {
    escape::block(text)
}

/// `--prompts-dir DIR`: one file per prompt, `DIR/<pack>/<case>/call-<n>-model.txt` and
/// `call-<n>-reviewer-<m>.txt`, each as `--print-prompts` shows it ([`block`]: a file is read in
/// a terminal, an editor or a CI log, so a hidden character a case carries is shown as
/// `U+XXXX`). `<pack>` is the name the lines use, with `/` turned into `--` so a run over several
/// folders stays flat. No write follows a link (docs/security.md, "Writes"): `DIR`, `<pack>` and
/// `<case>` must be real folders, and each file is written through a temporary file renamed over
/// the destination, so a link planted there is replaced.
pub(crate) fn write_dir(reports: &[PackReport], dir: &Path) -> anyhow::Result<()> {
    for r in reports {
        for c in &r.cases {
            let (pack, case) = (safe(r.run_name()), safe(&c.name));
            let folder = safe_write::real_folders(dir, &[&pack, &case]).map_err(|e| {
                anyhow::anyhow!(
                    "cannot write the prompts of {}: {}",
                    escape::line(&r.case_label(&c.name)),
                    escape::line(&e.to_string())
                )
            })?;
            for p in labelled(r, c) {
                let path = folder.join(&p.file);
                safe_write::write_atomic(&path, block(p.text).as_bytes()).map_err(|e| {
                    anyhow::anyhow!(
                        "cannot write {}: {e}",
                        escape::line(&path.display().to_string())
                    )
                })?;
            }
        }
    }
    Ok(())
}

/// A path component from a name: no separator, no leading dot.
fn safe(name: &str) -> String {
    let s: String = name
        .split('/')
        .filter(|p| !p.is_empty() && *p != "." && *p != "..")
        .collect::<Vec<_>>()
        .join("--");
    let s = s.trim_start_matches('.').to_string();
    if s.is_empty() { "pack".into() } else { s }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dream::ReviewPrompt;

    fn report() -> PackReport {
        PackReport {
            dir: "packs/a".into(),
            prefix: "packs/a/".into(),
            name: Some("a".into()),
            cases: vec![CaseResult {
                name: "c".into(),
                pass: "p".into(),
                prompts: vec!["one\n::error x\u{202E}".into()],
                review_prompts: vec![ReviewPrompt {
                    call: 1,
                    proposal: 1,
                    text: "review".into(),
                }],
                ..CaseResult::default()
            }],
            ..PackReport::default()
        }
    }

    #[test]
    fn prompts_are_labelled_and_clean() {
        let out = render(&[report()]);
        assert_eq!(
            out,
            "# packs/a/c: pass p, call 1, model\none\nU+003A:error xU+202E\n# packs/a/c: pass p, call 1, reviewer for proposal 1\nreview\n"
        );
        assert!(!out.contains('\u{202E}'), "control: nothing invisible");
    }

    #[test]
    fn prompts_dir_holds_one_file_each() {
        let t = tempfile::tempdir().unwrap();
        write_dir(&[report()], t.path()).unwrap();
        let f = t.path().join("packs--a/c/call-1-reviewer-1.txt");
        assert_eq!(std::fs::read_to_string(f).unwrap(), "review");
        let model = t.path().join("packs--a/c/call-1-model.txt");
        assert_eq!(
            std::fs::read_to_string(model).unwrap(),
            "one\nU+003A:error xU+202E",
            "shown as --print-prompts shows it"
        );
        assert_eq!(safe("../.x"), "x");
    }

    #[test]
    fn prompts_dir_never_writes_through_a_link() {
        let t = tempfile::tempdir().unwrap();
        let elsewhere = tempfile::tempdir().unwrap();
        std::fs::create_dir(t.path().join("packs--a")).unwrap();
        std::os::unix::fs::symlink(elsewhere.path(), t.path().join("packs--a/c")).unwrap();
        let err = write_dir(&[report()], t.path()).unwrap_err().to_string();
        assert!(err.contains("symbolic link"), "{err}");
        assert_eq!(std::fs::read_dir(elsewhere.path()).unwrap().count(), 0);
        // A link at a file's place is replaced, its target untouched.
        std::fs::remove_file(t.path().join("packs--a/c")).unwrap();
        std::fs::create_dir(t.path().join("packs--a/c")).unwrap();
        let victim = elsewhere.path().join("victim");
        std::fs::write(&victim, "precious").unwrap();
        let at = t.path().join("packs--a/c/call-1-model.txt");
        std::os::unix::fs::symlink(&victim, &at).unwrap();
        write_dir(&[report()], t.path()).unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        assert!(std::fs::symlink_metadata(&at).unwrap().is_file());
    }
}
