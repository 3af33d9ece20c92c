//! The closing instruction appended to a prompt that does not end with it, as hippo appends it
//! when it sends the prompt (trailing white space dropped, a blank line, the instruction, a line
//! feed): the file then reads as the model receives it.

use super::edit::{Edit, Fix, What};
use crate::core::Diagnostic;
use crate::model::prompt::CLOSING_INSTRUCTION;
use crate::rules::prompt::CLOSING_INSTRUCTION_MISSING;

/// The fix for a `closing-instruction` finding of the file, if it has one.
pub(crate) fn closing(text: &str, findings: &[&Diagnostic]) -> Option<Fix> {
    if !findings
        .iter()
        .any(|d| d.rule.id == CLOSING_INSTRUCTION_MISSING.id)
    {
        return None;
    }
    let kept = text.trim_end_matches(['\n', '\r', ' ', '\t']).len();
    Some(Fix::one(
        Edit {
            span: crate::core::Span::new(kept, text.len()),
            with: format!("\n\n{CLOSING_INSTRUCTION}\n"),
        },
        What::Closing,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fix::edit::apply;

    #[test]
    fn the_file_becomes_what_hippo_sends() {
        let d = Diagnostic::file(&CLOSING_INSTRUCTION_MISSING, "prompts/a.md", "");
        let text = "# Job\n\nDo it.  \n\n\n";
        let fix = closing(text, &[&d]).unwrap();
        let fixed = String::from_utf8(apply(text.as_bytes(), &[fix])).unwrap();
        assert_eq!(fixed, format!("# Job\n\nDo it.\n\n{CLOSING_INSTRUCTION}\n"));
        assert!(crate::model::prompt::ends_with_closing_instruction(&fixed));
        // Control: no finding, no fix.
        assert_eq!(closing(text, &[]), None);
    }
}
