//! Prompts: `{{...}}` placeholders name an input the pass reads; the prompt ends with the
//! closing instruction.

use super::declare::declare_rules;
use super::pass::INPUTS;
use crate::core::Diagnostic;
use crate::model::pass::PassDef;
use crate::model::prompt::{ends_with_closing_instruction, last_nonblank_line, placeholders};
use crate::pack::Pack;
use crate::pack::place::Place;

declare_rules! {
    /// A prompt placeholder that names no input
    ///
    /// A prompt's {{...}} placeholders must be {{sessions}}, {{notes}}, {{turns}} or
    /// {{human_confirmed}}, with nothing inside the braces but the name. Any other one would reach
    /// the model as it is, so the model would see a hole where its data should be.
    ///
    /// How to fix: Use one of {{sessions}}, {{notes}}, {{turns}}, {{human_confirmed}}, or reword
    /// the text so it holds no double braces.
    pub(crate) static UNKNOWN_PLACEHOLDER = "unknown-placeholder", Error, VeryHigh, rank = 320;

    /// A prompt placeholder for an input its pass does not read
    ///
    /// Each placeholder of a prompt must be in the reads of every pass that sends the prompt;
    /// otherwise hippo has no data to put in its place.
    ///
    /// How to fix: Add the input to the pass's reads, or remove the placeholder from the prompt.
    pub(crate) static PLACEHOLDER_NOT_IN_READS = "placeholder-not-in-reads", Error, VeryHigh, rank = 330;

    /// A prompt that does not end with the closing instruction
    ///
    /// Every first-party prompt ends with the closing instruction, word for word, as its last
    /// non-blank line: it tells the model the one reply shape hippo accepts. hippo appends it when
    /// it is missing, so a prompt that ends otherwise (or says something after it) is not sent as
    /// written.
    ///
    /// How to fix: End the prompt with this line, word for word: Respond with only a JSON array of
    /// objects `{note, kind, old, new, evidence: [{session, ordinal}], reason}` as your final
    /// message; an empty array means no proposals.
    pub(crate) static CLOSING_INSTRUCTION_MISSING = "closing-instruction", Warning, VeryHigh, rank = 340;
}

/// The placeholder errors, then the closing-instruction warning (which the catalogue ranks after
/// the not-referenced warning, as the page's table does).
pub(crate) fn check(pack: &Pack, passes: &[PassDef], out: &mut Vec<Diagnostic>) {
    for (f, at) in pack.files_placed() {
        if !matches!(at, Some((Place::Prompt, _))) {
            continue;
        }
        // Not UTF-8 or over the size limit: the text and size rules report it.
        let Some(text) = f.text() else { continue };
        let users: Vec<&PassDef> = passes
            .iter()
            .filter(|p| p.prompt == f.path && !p.reads.is_empty())
            .collect();
        for ph in placeholders(text) {
            if !INPUTS.contains(&ph.name) {
                out.push(
                    Diagnostic::at(
                        &UNKNOWN_PLACEHOLDER,
                        &f.path,
                        ph.span,
                        format!("unknown placeholder {{{{{}}}}}", ph.name),
                    )
                    .with_hint(crate::core::suggest::help(
                        ph.name,
                        INPUTS,
                        "the inputs",
                    )),
                );
                continue;
            }
            for pass in &users {
                if !pass.reads.iter().any(|r| r == ph.name) {
                    out.push(Diagnostic::at(
                        &PLACEHOLDER_NOT_IN_READS,
                        &f.path,
                        ph.span,
                        format!("{{{{{}}}}} is not in reads of {}", ph.name, pass.path),
                    ));
                }
            }
        }
        if !ends_with_closing_instruction(text) {
            let d = match last_nonblank_line(text) {
                Some((_, span)) => Diagnostic::key(
                    &CLOSING_INSTRUCTION_MISSING,
                    &f.path,
                    span,
                    "does not end with the closing instruction",
                ),
                None => Diagnostic::file(
                    &CLOSING_INSTRUCTION_MISSING,
                    &f.path,
                    "does not end with the closing instruction",
                ),
            };
            out.push(d);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::prompt::CLOSING_INSTRUCTION;
    use crate::pack::PackKind;
    use crate::pack::testing::text_pack;

    fn pass(reads: &[&str]) -> PassDef {
        PassDef {
            name: "x".into(),
            path: "passes/x.toml".into(),
            prompt: "prompts/x.md".into(),
            reads: reads.iter().map(|s| s.to_string()).collect(),
            ..PassDef::default()
        }
    }

    fn run(prompt: &str, passes: &[PassDef]) -> Vec<String> {
        let p = text_pack(PackKind::Pass, &[("prompts/x.md", prompt)]);
        let mut out = Vec::new();
        check(&p, passes, &mut out);
        crate::rules::finish(&p, &mut out);
        out.iter()
            .map(|d| format!("{} {}", d.severity.as_str(), d.text("")))
            .collect()
    }

    #[test]
    fn placeholders_are_found_with_their_place() {
        let t = "a {{notes}} b {{ turns }}\n{{{sessions}}} {{x\n}} {{}}";
        let found: Vec<(&str, &str)> = placeholders(t)
            .iter()
            .map(|p| (p.name, &t[p.span.start..p.span.end]))
            .collect();
        assert_eq!(
            found,
            [
                ("notes", "{{notes}}"),
                (" turns ", "{{ turns }}"),
                ("sessions", "{{sessions}}"),
                ("", "{{}}"),
            ]
        );
        assert!(placeholders("{single} {{open").is_empty(), "control");
    }

    #[test]
    fn unknown_and_unread_placeholders_are_errors_located_in_the_prompt() {
        let prompt = format!(
            "# T\n\n{{{{notes}}}} and {{{{foo}}}}\n{{{{turns}}}}\n\n{CLOSING_INSTRUCTION}\n"
        );
        let got = run(&prompt, &[pass(&["notes", "sessions"])]);
        assert_eq!(
            got,
            [
                "error prompts/x.md:3:15: unknown placeholder {{foo}}",
                "error prompts/x.md:4:1: {{turns}} is not in reads of passes/x.toml",
            ]
        );
        assert_eq!(
            run(&prompt.replace("{{foo}}", ""), &[pass(&["notes", "turns"])]),
            Vec::<String>::new(),
            "control: a prompt whose placeholders are all read is clean"
        );
        // a pass with no valid reads (its own error) does not multiply findings
        assert_eq!(run(&prompt.replace("{{foo}}", ""), &[pass(&[])]).len(), 0);
    }

    #[test]
    fn every_pass_that_sends_the_prompt_is_checked() {
        let mut other = pass(&["notes"]);
        other.path = "passes/y.toml".into();
        let prompt = format!("{{{{turns}}}}\n{CLOSING_INSTRUCTION}");
        let got = run(&prompt, &[pass(&["turns"]), other]);
        assert_eq!(
            got,
            ["error prompts/x.md:1:1: {{turns}} is not in reads of passes/y.toml"]
        );
    }

    #[test]
    fn closing_instruction() {
        assert!(ends_with_closing_instruction(&format!(
            "x\n\n{CLOSING_INSTRUCTION}  \t\r\n\n  \n"
        )));
        assert!(ends_with_closing_instruction(CLOSING_INSTRUCTION));
        assert!(!ends_with_closing_instruction(&format!(
            "{CLOSING_INSTRUCTION}\nIgnore that."
        )));
        assert!(!ends_with_closing_instruction(&format!(
            " {CLOSING_INSTRUCTION}"
        )));
        assert!(!ends_with_closing_instruction(""));
        assert!(!ends_with_closing_instruction("\n \n"));
        assert_eq!(
            run("# T\n\nAnswer.\n", &[]),
            ["warning prompts/x.md: does not end with the closing instruction"]
        );
        assert_eq!(
            run("", &[]),
            ["warning prompts/x.md: does not end with the closing instruction"]
        );
    }
}
