//! `--print-prompts` and `--prompts-dir`: every prompt a case sent, the pass's model's and the
//! reviewer's, each under a label line (docs/output-formats.md):
//! `# <pack>/<case>: pass <pass>, call <n>, model` or
//! `# <pack>/<case>: pass <pass>, call <n>, reviewer for proposal <m>`.

use crate::core::escape;
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

/// The files of one case under `--prompts-dir DIR`: `DIR/<pack>/<case>/call-<n>-model.txt` and
/// `call-<n>-reviewer-<m>.txt`, each as `--print-prompts` shows it ([`block`]: a file is read in
/// a terminal, an editor or a CI log, so a hidden character a case carries is shown as
/// `U+XXXX`). `<pack>` is the name the lines use, with `/` turned into `--` so a run over several
/// folders stays flat. What is written only: the command line writes it (`cli::prompts_dir`).
pub(crate) struct CaseFiles {
    /// The case as the lines name it (`packs/a/c`), for an error about its folder.
    pub(crate) label: String,
    /// The folder under `DIR`, then the one under it: path components, no separator in either.
    pub(crate) folders: [String; 2],
    /// Each file's name and contents, in the order the prompts were sent.
    pub(crate) files: Vec<(String, String)>,
}

/// The `--prompts-dir` files of every case of the reports, case by case ([`CaseFiles`]).
pub(crate) fn case_files(reports: &[PackReport]) -> Vec<CaseFiles> {
    let mut out = Vec::new();
    for r in reports {
        for c in &r.cases {
            out.push(CaseFiles {
                label: r.case_label(&c.name),
                folders: [safe(r.run_name()), safe(&c.name)],
                files: labelled(r, c)
                    .into_iter()
                    .map(|p| (p.file, block(p.text)))
                    .collect(),
            });
        }
    }
    out
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

/// A pack whose one case sent a model prompt holding a workflow command and a hidden character,
/// and a reviewer's prompt (the tests of the prompts' renderings and of the prompts folder).
#[cfg(test)]
pub(crate) fn sample() -> PackReport {
    PackReport {
        dir: "packs/a".into(),
        prefix: "packs/a/".into(),
        name: Some("a".into()),
        cases: vec![CaseResult {
            name: "c".into(),
            pass: "p".into(),
            prompts: vec!["one\n::error x\u{202E}".into()],
            review_prompts: vec![crate::dream::ReviewPrompt {
                call: 1,
                proposal: 1,
                text: "review".into(),
            }],
            ..CaseResult::default()
        }],
        ..PackReport::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report() -> PackReport {
        sample()
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
    fn each_case_has_one_file_a_prompt_shown_as_print_prompts_shows_it() {
        let cases = case_files(&[report()]);
        assert_eq!(cases.len(), 1);
        assert_eq!(cases[0].label, "packs/a/c");
        assert_eq!(cases[0].folders, ["packs--a", "c"]);
        assert_eq!(
            cases[0].files,
            [
                (
                    "call-1-model.txt".to_string(),
                    "one\nU+003A:error xU+202E".to_string()
                ),
                ("call-1-reviewer-1.txt".to_string(), "review".to_string()),
            ]
        );
        assert_eq!(safe("../.x"), "x");
        assert_eq!(safe(".."), "pack", "control: nothing left is a name still");
    }
}
