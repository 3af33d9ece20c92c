//! `hippo-packs stub-model` (hidden): the stand-in model and reviewer (SPEC 5.7).
//!
//! It reads a prompt on standard input and prints the case's reply (as the model) or
//! `{"verdict": "<verdict>", "notes": "stand-in reviewer"}` (as the reviewer). What to answer
//! comes from its flags, or, when a flag is absent, from the environment `hippo-packs test` sets
//! for a `--model-command`: `HIPPO_PACKS_ROLE` (`model` or `reviewer`), `HIPPO_PACKS_REPLY_FILE`
//! (a file holding the reply) and `HIPPO_PACKS_VERDICT`.

use std::io::{Read, Write};

/// The environment a model command receives from `hippo-packs test`.
pub const ENV_ROLE: &str = "HIPPO_PACKS_ROLE";
pub const ENV_REPLY_FILE: &str = "HIPPO_PACKS_REPLY_FILE";
pub const ENV_VERDICT: &str = "HIPPO_PACKS_VERDICT";

#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Answer as the pass's model: print the reply.
    Model,
    /// Answer as the reviewer: print the verdict object.
    Reviewer,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Model => "model",
            Role::Reviewer => "reviewer",
        }
    }
}

#[derive(clap::Args, Debug)]
pub struct StubArgs {
    /// Answer as the model or as the reviewer (default: $HIPPO_PACKS_ROLE, else model).
    #[arg(long, value_enum)]
    pub role: Option<Role>,
    /// The file holding the model's reply (default: $HIPPO_PACKS_REPLY_FILE, else `[]`).
    #[arg(long, value_name = "FILE")]
    pub reply_file: Option<std::path::PathBuf>,
    /// The reviewer's verdict (default: $HIPPO_PACKS_VERDICT, else confirm).
    #[arg(long)]
    pub verdict: Option<String>,
}

/// What the stand-in answers: the same text in-process and as a command.
pub fn answer(role: Role, reply: &str, verdict: &str) -> String {
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

pub fn run(args: StubArgs) -> anyhow::Result<i32> {
    let role = match args.role {
        Some(r) => r,
        None => match std::env::var(ENV_ROLE).ok().as_deref() {
            None | Some("model") => Role::Model,
            Some("reviewer") => Role::Reviewer,
            Some(other) => anyhow::bail!("{ENV_ROLE}: {other} is not model or reviewer"),
        },
    };
    let reply = match args
        .reply_file
        .or_else(|| std::env::var_os(ENV_REPLY_FILE).map(Into::into))
    {
        Some(path) => std::fs::read_to_string(&path)
            .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?,
        None => "[]".to_string(),
    };
    let verdict = args
        .verdict
        .or_else(|| std::env::var(ENV_VERDICT).ok())
        .unwrap_or_default();
    // The prompt is read whole, as a model would, and not used.
    let mut prompt = Vec::new();
    std::io::stdin().lock().read_to_end(&mut prompt)?;
    let mut out = std::io::stdout().lock();
    out.write_all(answer(role, &reply, &verdict).as_bytes())?;
    out.flush()?;
    Ok(crate::cli::EXIT_OK)
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
