//! What the shell gets from the binary: completion scripts and the manual page, both from the
//! command line as a person sees it ([`public_command`]: no hidden command or option, so the
//! stand-in model, `check --junit` and `test --model-command` are never offered).
//!
//! Bash: clap_complete names the script's functions from the binary's name and, for a name
//! with a `-`, names the per-command branches differently from its dispatcher, so nothing after
//! a command completed; the script is generated for `hippo_packs` and registered for
//! `hippo-packs`. The manual is one page with every command and option, then EXIT STATUS,
//! FILES and EXAMPLES (tests/it/completions.rs loads the script into a real bash; the unit tests
//! below hold every option to the page).

use std::io::Write;

use clap::builder::{PossibleValue, PossibleValuesParser};
use clap::{Command, CommandFactory};

use super::args::Cli;

/// The binary's name.
const NAME: &str = "hippo-packs";
/// The name bash's script is generated for: no `-` (see the module's comment).
const BASH_NAME: &str = "hippo_packs";

/// The command line without hidden commands and options, unbuilt.
pub(crate) fn public_command() -> Command {
    visible(&Cli::command())
}

fn visible(cmd: &Command) -> Command {
    let mut out = Command::new(leaked(cmd.get_name()));
    if let Some(v) = cmd.get_version() {
        out = out.version(leaked(v));
    }
    if let Some(a) = cmd.get_about() {
        out = out.about(a.clone());
    }
    if let Some(a) = cmd.get_long_about() {
        out = out.long_about(a.clone());
    }
    out.args(cmd.get_arguments().filter(|a| !a.is_hide_set()).cloned())
        .subcommands(
            cmd.get_subcommands()
                .filter(|s| !s.is_hide_set())
                .map(visible),
        )
}

/// A name clap keeps as `&'static str` (without its `string` feature). The command line is
/// built once, for one script or page, so the few names it copies live as long as the process.
fn leaked(s: &str) -> &'static str {
    Box::leak(s.to_owned().into_boxed_str())
}

/// The completion script for `shell`.
pub(crate) fn completions(shell: clap_complete::Shell) -> String {
    let mut cmd = values_safe(with_rule_ids(public_command()));
    let mut out = Vec::new();
    if shell == clap_complete::Shell::Fish {
        clap_complete::generate(shell, &mut cmd, NAME, &mut out);
        // clap_complete's fish script completes no positional value: the rule ids are added.
        let mut script = String::from_utf8_lossy(&out).into_owned();
        for r in crate::rules::catalogue() {
            script.push_str(&format!(
                "complete -c {NAME} -n \"__fish_hippo_packs_using_subcommand rules\" -f -a \"{}\" -d '{}'\n",
                r.id,
                safe_help(r.summary())
            ));
        }
        return script;
    }
    if shell != clap_complete::Shell::Bash {
        clap_complete::generate(shell, &mut cmd, NAME, &mut out);
        return String::from_utf8_lossy(&out).into_owned();
    }
    clap_complete::generate(shell, &mut cmd, BASH_NAME, &mut out);
    let script = String::from_utf8_lossy(&out);
    let mut fixed = String::with_capacity(script.len());
    for line in script.lines() {
        // `complete -F _hippo_packs ... hippo_packs`: the script serves the real name.
        match line.strip_suffix(BASH_NAME) {
            Some(head) if line.trim_start().starts_with("complete ") => {
                fixed.push_str(head);
                fixed.push_str(NAME);
            }
            _ => fixed.push_str(line),
        }
        fixed.push('\n');
    }
    fixed
}

/// `rules <RULE>` completes the rule ids (only in the scripts: the command itself takes any
/// text, and names the nearest id when it names none), each with its summary.
fn with_rule_ids(cmd: Command) -> Command {
    cmd.mut_subcommand("rules", |s| {
        s.mut_arg("rule", |a| {
            let ids = crate::rules::catalogue()
                .iter()
                .map(|r| PossibleValue::new(r.id).help(r.summary().to_string()));
            a.value_parser(PossibleValuesParser::new(ids))
        })
    })
}

/// clap_complete writes a value's help inside quotes without escaping a quote in it: zsh's
/// spec is in `'…'` and fish's in `"…"`, and either shell then reads the rest of the help as
/// more values (the text format's help says "hippo's page", ruff's name) or refuses the whole
/// script. A value's help is one line without either quote: `'` becomes `’`, `"` is dropped.
fn values_safe(cmd: Command) -> Command {
    cmd.mut_subcommands(|s| {
        s.mut_args(|a| {
            let values = a.get_possible_values();
            let bad = |h: &str| h.contains(['"', '\'', '\n', '`', '$', '\\']);
            let quoted = |v: &PossibleValue| v.get_help().is_some_and(|h| bad(&h.to_string()));
            if !values.iter().any(quoted) {
                return a;
            }
            let values: Vec<PossibleValue> = values
                .into_iter()
                .map(|v| match v.get_help().map(|h| safe_help(&h.to_string())) {
                    Some(help) => v.help(help),
                    None => v,
                })
                .collect();
            a.value_parser(PossibleValuesParser::new(values))
        })
    })
}

/// A value's help as every shell's script can quote it.
fn safe_help(help: &str) -> String {
    let one_line = help.split_whitespace().collect::<Vec<_>>().join(" ");
    one_line
        .replace('\'', "\u{2019}")
        .replace(['"', '`', '$', '\\'], "")
}

/// The manual page (roff): NAME, SYNOPSIS, DESCRIPTION, the options of every command, EXIT
/// STATUS, FILES, EXAMPLES.
pub(crate) fn manual() -> std::io::Result<String> {
    let mut root = public_command().bin_name(NAME);
    root.build();
    let man = clap_mangen::Man::new(root.clone());
    let mut out = Vec::new();
    man.render_title(&mut out)?;
    man.render_name_section(&mut out)?;
    man.render_synopsis_section(&mut out)?;
    man.render_description_section(&mut out)?;
    man.render_options_section(&mut out)?;
    writeln!(out, ".SH COMMANDS")?;
    for sub in root.get_subcommands().filter(|s| s.get_name() != "help") {
        let page = clap_mangen::Man::new(sub.clone());
        writeln!(out, ".SS \"{NAME} {}\"", sub.get_name())?;
        let mut part = Vec::new();
        page.render_synopsis_section(&mut part)?;
        page.render_description_section(&mut part)?;
        if sub.get_arguments().any(|a| !a.is_positional()) {
            page.render_options_section(&mut part)?;
        }
        out.extend_from_slice(demoted(&String::from_utf8_lossy(&part)).as_bytes());
    }
    out.extend_from_slice(include_str!("shell/manual-tail.roff").as_bytes());
    man.render_version_section(&mut out)?;
    Ok(one_preamble(&String::from_utf8_lossy(&out)))
}

/// The page with roff's preamble (`.ie`/`.el`, defining the apostrophe) once, at its head:
/// each section clap_mangen renders on its own starts with it.
fn one_preamble(page: &str) -> String {
    let mut seen = std::collections::HashSet::new();
    let mut out = String::with_capacity(page.len());
    for line in page.lines() {
        let preamble = line.starts_with(".ie ") || line.starts_with(".el ");
        if !preamble || seen.insert(line) {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// A command's sections inside COMMANDS: `.SH SYNOPSIS` and `.SH DESCRIPTION` dropped (their
/// text follows the command's heading), `.SH OPTIONS` as a paragraph `Options:`.
fn demoted(roff: &str) -> String {
    let mut out = String::with_capacity(roff.len());
    for line in roff.lines() {
        match line {
            ".SH SYNOPSIS" | ".SH DESCRIPTION" => out.push_str(".PP"),
            ".SH OPTIONS" => out.push_str(".PP\nOptions:"),
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--long` as roff writes it (`\-\-deny\-warnings`).
    fn roff_long(long: &str) -> String {
        format!("\\-\\-{}", long.replace('-', "\\-"))
    }

    #[test]
    fn the_manual_holds_every_option_of_every_command() {
        let page = manual().unwrap();
        let mut seen = 0;
        for sub in public_command().get_subcommands() {
            assert!(page.contains(&format!(".SS \"hippo-packs {}\"", sub.get_name())));
            for arg in sub.get_arguments() {
                if let Some(long) = arg.get_long() {
                    assert!(
                        page.contains(&roff_long(long)),
                        "{} --{long}",
                        sub.get_name()
                    );
                    seen += 1;
                }
            }
        }
        assert!(seen > 20, "every command's options: {seen}");
        assert_eq!(page.matches("\n.el ").count(), 1, "one preamble");
        assert!(
            page.contains("\\fB130\\fR"),
            "the exit status of an interrupted run"
        );
        for section in ["EXIT STATUS", "FILES", "EXAMPLES"] {
            assert!(
                page.contains(&format!(".SH \"{section}\""))
                    || page.contains(&format!(".SH {section}")),
                "{section}"
            );
        }
        // Control: hidden commands and options are not in the page.
        assert!(!page.contains("stub\\-model"), "the stand-in is hidden");
        assert!(!page.contains(&roff_long("model-command")));
    }

    #[test]
    fn hidden_commands_and_options_are_never_offered() {
        for shell in [
            clap_complete::Shell::Bash,
            clap_complete::Shell::Zsh,
            clap_complete::Shell::Fish,
        ] {
            let script = completions(shell);
            assert!(!script.contains("stub-model"), "{shell}");
            assert!(!script.contains("model-command"), "{shell}");
            assert!(
                script.contains("deny-warnings"),
                "control: {shell} offers options"
            );
        }
        let raw = {
            let mut out = Vec::new();
            clap_complete::generate(
                clap_complete::Shell::Bash,
                &mut Cli::command(),
                NAME,
                &mut out,
            );
            String::from_utf8(out).unwrap()
        };
        assert!(
            raw.contains("stub-model"),
            "control: the full command has it"
        );
    }

    #[test]
    fn rule_ids_complete_and_no_value_help_breaks_a_quote() {
        for shell in [clap_complete::Shell::Zsh, clap_complete::Shell::Fish] {
            let script = completions(shell);
            assert!(script.contains("shell-text"), "{shell}: the rule ids");
            assert!(script.contains("invisible-character"), "{shell}");
            assert!(
                !script.contains("hippo's"),
                "{shell}: no quote in a value's help"
            );
            assert!(
                script.contains("hippo\u{2019}s"),
                "control: {shell} has the help"
            );
        }
        assert_eq!(safe_help("a \"b\" c's\n d"), "a b c\u{2019}s d");
    }

    #[test]
    fn bash_serves_the_real_name() {
        let script = completions(clap_complete::Shell::Bash);
        assert!(script.contains("complete -F _hippo_packs"), "{script}");
        assert!(script.trim_end().ends_with("hippo-packs\nfi"), "{script}");
    }
}
