//! The command line: parse, dispatch, and one place that turns results into an exit code.

use clap::Parser;

mod args;
mod ci_args;
mod commands;
mod exit;
mod hints;
mod init;
mod paths;
mod stub_model;

pub use args::{
    CheckArgs, Cli, ColorWhen, Command, CompletionsArgs, Format, InitArgs, OutputArgs, RulesArgs,
    TestArgs,
};
pub use commands::verdict;
pub use exit::{EXIT_FINDINGS, EXIT_INTERNAL, EXIT_OK, EXIT_USAGE};

/// Runs the command line and returns the exit code.
pub fn run() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_USAGE } else { EXIT_OK };
            let _ = e.print();
            return code;
        }
    };
    match commands::dispatch(cli) {
        Ok(code) => code,
        Err(e) => {
            let msg = format!("{e:#}");
            eprintln!(
                "hippo-packs: internal error: {}",
                crate::core::escape::line(&msg)
            );
            EXIT_INTERNAL
        }
    }
}
