//! `hippo-packs stub-model` (hidden): the stand-in model and reviewer as a command.
//!
//! It reads a prompt on standard input and prints the case's reply (as the model) or
//! `{"verdict": "<verdict>", "notes": "stand-in reviewer"}` (as the reviewer). What to answer
//! comes from its flags, or, when a flag is absent, from the environment `hippo-packs test` sets
//! for a `--model-command`: `HIPPO_PACKS_ROLE` (`model` or `reviewer`), `HIPPO_PACKS_REPLY_FILE`
//! (a file holding the reply) and `HIPPO_PACKS_VERDICT`.

use std::io::{Read, Write};

use crate::dream::stub::{ENV_REPLY_FILE, ENV_ROLE, ENV_VERDICT, Role, answer};

#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StubRole {
    /// Answer as the pass's model: print the reply.
    Model,
    /// Answer as the reviewer: print the verdict object.
    Reviewer,
}

impl From<StubRole> for Role {
    fn from(r: StubRole) -> Role {
        match r {
            StubRole::Model => Role::Model,
            StubRole::Reviewer => Role::Reviewer,
        }
    }
}

#[derive(clap::Args, Debug)]
pub(crate) struct StubArgs {
    /// Answer as the model or as the reviewer (default: $HIPPO_PACKS_ROLE, else model).
    #[arg(long, value_enum)]
    pub(crate) role: Option<StubRole>,
    /// The file holding the model's reply (default: $HIPPO_PACKS_REPLY_FILE, else `[]`).
    #[arg(long, value_name = "FILE")]
    pub(crate) reply_file: Option<std::path::PathBuf>,
    /// The reviewer's verdict (default: $HIPPO_PACKS_VERDICT, else confirm).
    #[arg(long)]
    pub(crate) verdict: Option<String>,
}

/// `hippo-packs stub-model`: reads a prompt on standard input and prints the stand-in's answer.
pub(crate) fn run(args: StubArgs) -> anyhow::Result<()> {
    let role = match args.role {
        Some(r) => r.into(),
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
    Ok(())
}
