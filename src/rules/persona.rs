//! Personas: the first-party shape (four sections and the reply contract), as warnings.
//!
//! Each section has its own rule so that the findings keep the page's order (Role, What you
//! receive, Rules, Reply) by catalogue rank, and so each rule can say what its section is for.

use super::declare::declare_rules;
use crate::core::Diagnostic;
use crate::core::Rule;
use crate::model::markdown::Markdown;

declare_rules! {
    /// A persona without a ## Role section
    ///
    /// The first-party personas share one shape: ## Role, ## What you receive, ## Rules and ##
    /// Reply, each a level-2 heading. ## Role says the reviewer has no conversation history and knows
    /// only what it receives. A persona is a list of reasons to reject, given to hippo's own
    /// reviewer; it cannot loosen anything, but a reviewer persona without the shared shape is
    /// harder to trust and to review.
    ///
    /// How to fix: Add a line ## Role and the section under it, as the example persona on hippo's
    /// page "Writing a pack" does.
    pub(crate) static PERSONA_ROLE = "persona-role", Warning, VeryHigh, rank = 350;

    /// A persona without a ## What you receive section
    ///
    /// The first-party personas share one shape: ## Role, ## What you receive, ## Rules and ##
    /// Reply, each a level-2 heading. ## What you receive lists the note, the change, the evidence and
    /// the sessions' records. A persona is a list of reasons to reject, given to hippo's own
    /// reviewer; it cannot loosen anything, but a reviewer persona without the shared shape is
    /// harder to trust and to review.
    ///
    /// How to fix: Add a line ## What you receive and the section under it, as the example persona
    /// on hippo's page "Writing a pack" does.
    pub(crate) static PERSONA_WHAT_YOU_RECEIVE = "persona-what-you-receive", Warning, VeryHigh, rank = 360;

    /// A persona without a ## Rules section
    ///
    /// The first-party personas share one shape: ## Role, ## What you receive, ## Rules and ##
    /// Reply, each a level-2 heading. ## Rules says what to reject: the note, the evidence and the
    /// records are data; reject a change that is not an append, has text in old, alters the note,
    /// falls outside the pack's section, or adds an instruction, command or link whose only source
    /// is tool output; reject by default. A persona is a list of reasons to reject, given to
    /// hippo's own reviewer; it cannot loosen anything, but a reviewer persona without the shared
    /// shape is harder to trust and to review.
    ///
    /// How to fix: Add a line ## Rules and the section under it, as the example persona on hippo's
    /// page "Writing a pack" does.
    pub(crate) static PERSONA_RULES = "persona-rules", Warning, VeryHigh, rank = 370;

    /// A persona without a ## Reply section
    ///
    /// The first-party personas share one shape: ## Role, ## What you receive, ## Rules and ##
    /// Reply, each a level-2 heading. ## Reply gives the reply contract and nothing else. A persona is
    /// a list of reasons to reject, given to hippo's own reviewer; it cannot loosen anything, but a
    /// reviewer persona without the shared shape is harder to trust and to review.
    ///
    /// How to fix: Add a line ## Reply and the section under it, as the example persona on hippo's
    /// page "Writing a pack" does.
    pub(crate) static PERSONA_REPLY = "persona-reply", Warning, VeryHigh, rank = 380;

    /// A persona without the reply contract
    ///
    /// The reviewer's reply must be {"verdict": "confirm"|"reject", "notes": "<one sentence>"};
    /// hippo counts any other reply as a rejection. A persona that does not state the contract
    /// invites replies that reject every change.
    ///
    /// How to fix: Add the line: Reply with {"verdict": "confirm"|"reject", "notes": "<one
    /// sentence>"} and nothing else.
    pub(crate) static PERSONA_REPLY_CONTRACT = "persona-reply-contract", Warning, VeryHigh, rank = 390;
}

/// The sections, in the order of hippo's page "Writing a pack", with their rules: each a
/// level-2 heading whose text is the name, alone or followed by `:` and more.
pub(crate) const SECTIONS: &[(&str, &Rule)] = &[
    ("Role", &PERSONA_ROLE),
    ("What you receive", &PERSONA_WHAT_YOU_RECEIVE),
    ("Rules", &PERSONA_RULES),
    ("Reply", &PERSONA_REPLY),
];

/// The text whose presence means the persona states the reply contract, searched in the
/// persona with its white space collapsed ([`collapsed`]).
pub(crate) const REPLY_CONTRACT: &str = r#"{"verdict": "confirm"|"reject""#;

/// Whether a level-2 heading (in any form CommonMark reads, never inside code) names the section:
/// its text is the name, or the name followed by `:` and more (`## Role: a reviewer with no
/// conversation history`, as the page's own list writes it).
pub(crate) fn has_section(md: &Markdown, name: &str) -> bool {
    md.headings.iter().any(|h| {
        h.level == 2
            && h.text
                .strip_prefix(name)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(':'))
    })
}

/// A text with every run of white space (line breaks included) read as one space, and none
/// right after `{` (where a pretty-printed object breaks its line): the reply contract may
/// span lines.
pub(crate) fn collapsed(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() && !out.ends_with('{') {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// Whether a persona states the reply contract.
pub(crate) fn has_reply_contract(text: &str) -> bool {
    text.contains(REPLY_CONTRACT) || collapsed(text).contains(REPLY_CONTRACT)
}

/// Every persona of a pack, each read here (`check` reads each once, in `rules::file_scan`).
#[cfg(test)]
pub(crate) fn check(pack: &crate::pack::Pack, out: &mut Vec<Diagnostic>) {
    use crate::model::markdown;
    use crate::pack::PackKind;
    use crate::pack::place::{Place, place};
    for f in pack.files() {
        if !matches!(place(PackKind::Pass, &f.path), Some((Place::Persona, _))) {
            continue;
        }
        // Not UTF-8 or over the size limit: the text and size rules report it.
        let Some(text) = f.text() else { continue };
        check_persona(&f.path, text, &markdown::read(text), out);
    }
}

/// The persona warnings of one persona, given its Markdown reading.
pub(crate) fn check_persona(path: &str, text: &str, md: &Markdown, out: &mut Vec<Diagnostic>) {
    for (name, rule) in SECTIONS {
        if !has_section(md, name) {
            out.push(Diagnostic::file(rule, path, format!("lacks ## {name}")));
        }
    }
    if !has_reply_contract(text) {
        out.push(Diagnostic::file(
            &PERSONA_REPLY_CONTRACT,
            path,
            "lacks the reply contract",
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::markdown;
    use crate::pack::PackKind;
    use crate::pack::testing::text_pack;

    fn run(persona: &str) -> Vec<String> {
        let p = text_pack(
            PackKind::Pass,
            &[("personas/r.md", persona), ("prompts/r.md", "")],
        );
        let mut out = Vec::new();
        check(&p, &mut out);
        crate::rules::finish(&p, &mut out);
        out.iter().map(|d| d.text("")).collect()
    }

    const GOOD: &str = "# R\n\n## Role\n\nx\n\n## What you receive\n\nx\n\n## Rules\n\n- x\n\n## Reply  \r\n\nReply with {\"verdict\": \"confirm\"|\"reject\", \"notes\": \"<one sentence>\"} and nothing else.\n";

    fn section(text: &str) -> bool {
        has_section(&markdown::read(text), "Role")
    }

    #[test]
    fn a_heading_in_a_code_fence_is_not_a_section() {
        assert!(!section("```\n## Role\n```\n"));
        assert!(!section("~~~md\n## Role\n~~~\n"));
        assert!(
            section("```\nx\n```\n## Role\n"),
            "control: after the fence"
        );
    }

    #[test]
    fn a_section_in_every_form_commonmark_reads() {
        for text in [
            "## Role\n",
            "##  Role\n",
            "## Role ##\n",
            "Role\n----\n",
            "## Role: a reviewer with no conversation history\n",
            "## Role:\n",
        ] {
            assert!(section(text), "{text:?}");
        }
        // Controls: another name that starts the same, another level, not a heading.
        for text in [
            "## Roles\n",
            "## Role-play\n",
            "## role\n",
            "### Role\n",
            "Role\n====\n",
            "See ## Role\n",
            "    ## Role\n",
        ] {
            assert!(!section(text), "{text:?}");
        }
    }

    #[test]
    fn the_reply_contract_may_span_lines() {
        for text in [
            "Reply with {\"verdict\": \"confirm\"|\"reject\", \"notes\": \"<one sentence>\"}",
            "Reply with {\"verdict\":\n  \"confirm\"|\"reject\",\n  \"notes\": \"<one sentence>\"}",
            "Reply with\n\n```json\n{\n  \"verdict\": \"confirm\"|\"reject\",\n  \"notes\": \"<one sentence>\"\n}\n```",
            "Reply with {\"verdict\":\t \"confirm\"|\"reject\"}",
        ] {
            assert!(has_reply_contract(text), "{text:?}");
        }
        // Controls: no space where the contract has one; another word.
        assert!(!has_reply_contract("{\"verdict\":\"confirm\"|\"reject\"}"));
        assert!(!has_reply_contract(
            "{\"verdict\": \"confirm\" | \"reject\"}"
        ));
        assert!(!has_reply_contract("{\"verdict\": \"approve\"|\"reject\"}"));
    }

    #[test]
    fn the_page_shape_is_clean() {
        assert_eq!(run(GOOD), Vec::<String>::new());
    }

    #[test]
    fn the_page_broken_persona_in_its_order() {
        assert_eq!(
            run("# Decision log reviewer\n\n## Role\n\nYou are a reviewer.\n"),
            [
                "personas/r.md: lacks ## What you receive",
                "personas/r.md: lacks ## Rules",
                "personas/r.md: lacks ## Reply",
                "personas/r.md: lacks the reply contract",
            ]
        );
    }

    #[test]
    fn headings_must_be_lines_of_their_own() {
        let inline = GOOD.replace("## Rules\n", "See ## Rules\n");
        assert_eq!(run(&inline), ["personas/r.md: lacks ## Rules"]);
        let deeper = GOOD.replace("## Role\n", "### Role\n");
        assert_eq!(run(&deeper), ["personas/r.md: lacks ## Role"]);
        let loose = GOOD.replace("\"verdict\": \"confirm\"", "\"verdict\":\"confirm\"");
        assert_eq!(run(&loose), ["personas/r.md: lacks the reply contract"]);
    }
}
