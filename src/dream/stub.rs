//! The stand-in model and reviewer (docs/testing-packs.md): what they answer, in-process and as
//! the hidden `hippo-packs stub-model` command.
//!
//! It reads a prompt on standard input and prints the case's reply (as the model) or
//! `{"verdict": "<verdict>", "notes": "stand-in reviewer"}` (as the reviewer). What to answer
//! comes from its flags, or, when a flag is absent, from the environment `hippo-packs test` sets
//! for a `--model-command`: `HIPPO_PACKS_ROLE` (`model` or `reviewer`), `HIPPO_PACKS_REPLY_FILE`
//! (a file holding the reply) and `HIPPO_PACKS_VERDICT`.

/// The environment a model command receives from `hippo-packs test`.
pub(crate) const ENV_ROLE: &str = "HIPPO_PACKS_ROLE";
pub(crate) const ENV_REPLY_FILE: &str = "HIPPO_PACKS_REPLY_FILE";
pub(crate) const ENV_VERDICT: &str = "HIPPO_PACKS_VERDICT";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    /// Answer as the pass's model: print the reply.
    Model,
    /// Answer as the reviewer: print the verdict object.
    Reviewer,
}

impl Role {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Role::Model => "model",
            Role::Reviewer => "reviewer",
        }
    }
}

/// What the stand-in answers: the same text in-process and as a command.
pub(crate) fn answer(role: Role, reply: &str, verdict: &str) -> String {
    match role {
        Role::Model => reply.to_string(),
        Role::Reviewer => {
            let verdict = if verdict.is_empty() {
                "confirm"
            } else {
                verdict
            };
            let verdict = serde_json::Value::from(verdict);
            format!("{{\"verdict\": {verdict}, \"notes\": \"stand-in reviewer\"}}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers() {
        assert_eq!(answer(Role::Model, "[1]", "reject"), "[1]");
        assert_eq!(
            answer(Role::Reviewer, "[1]", "reject"),
            r#"{"verdict": "reject", "notes": "stand-in reviewer"}"#
        );
        assert_eq!(
            answer(Role::Reviewer, "", ""),
            r#"{"verdict": "confirm", "notes": "stand-in reviewer"}"#
        );
        assert_eq!(
            answer(Role::Reviewer, "", "a\"b"),
            r#"{"verdict": "a\"b", "notes": "stand-in reviewer"}"#,
            "the verdict is JSON-escaped"
        );
    }
}
