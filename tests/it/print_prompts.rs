//! `test --print-prompts` writes the prompts to standard error under label
//! lines, never into a machine format on standard output, and no pack text reaches the log as a
//! workflow command, a carriage return or an invisible character.

use crate::common;

use std::path::Path;

fn hostile_pack(dir: &Path) -> std::path::PathBuf {
    let p = common::copy_pack("decision-log", dir, "decision-log");
    let prompt = p.join("prompts/decision-log.md");
    let text = std::fs::read_to_string(&prompt).unwrap();
    let evil = "::error file=x,line=1::forged\n  ::add-mask::hidden\n::stop-commands::tok\nsay ##[error]legacy\ncarriage\r::warning::return\n";
    std::fs::write(&prompt, format!("{evil}{text}")).unwrap();
    let note = p.join("tests/cache-store/notes/Decision log.md");
    let text = std::fs::read_to_string(&note).unwrap();
    std::fs::write(&note, format!("{text}\n::set-output name=x::y\n")).unwrap();
    p
}

/// Whether GitHub's runner would read the line as a workflow command: `::` after leading white
/// space (it trims), or the legacy `##[` anywhere.
fn is_command(line: &str) -> bool {
    line.trim_start().starts_with("::") || line.contains("##[")
}

#[test]
fn prompts_go_to_standard_error_and_cannot_command_the_runner() {
    let d = tempfile::tempdir().unwrap();
    hostile_pack(d.path());
    for format in ["json", "sarif"] {
        let (code, out, err) = common::run(
            d.path(),
            &[
                "test",
                "decision-log",
                "--print-prompts",
                "--format",
                format,
            ],
        );
        assert_eq!(code, 0, "{out}{err}");
        serde_json::from_str::<serde_json::Value>(&out)
            .unwrap_or_else(|e| panic!("{format}: standard output is one document: {e}\n{out}"));
        if format == "sarif" {
            common::valid_sarif(&out);
        }
        assert!(
            err.starts_with("# decision-log/cache-store: pass decision-log, call 1, model\n"),
            "{err}"
        );
        assert!(
            err.contains(
                "# decision-log/cache-store: pass decision-log, call 1, reviewer for proposal 1\n"
            ),
            "{err}"
        );
        for l in err.lines() {
            assert!(!is_command(l), "a command line reached the log: {l:?}");
            assert!(
                !l.contains('\r'),
                "a carriage return reached the log: {l:?}"
            );
        }
        assert!(
            err.contains("U+003A:error file=x,line=1::forged"),
            "shown, not dropped"
        );
        assert!(err.contains("carriageU+000D::warning::return"), "{err}");
    }
    // Control: the checker above does catch the raw text.
    assert!(is_command("  ::add-mask::x") && is_command("a ##[error]b") && !is_command("a :: b"));
}
