//! Completion scripts loaded into a real shell and asked for completions, as a person's shell
//! asks: bash here (it is everywhere); zsh and fish where installed: their tests are ignored
//! with the reason unless the `shells` feature is on, which `.ci/run` turns on after
//! installing them. A hidden command or option (the stand-in model, `check --junit`,
//! `test --model-command`) is never offered.

use std::path::Path;
use std::process::Command;

fn script(shell: &str, dir: &Path) -> std::path::PathBuf {
    let out = Command::new(env!("CARGO_BIN_EXE_hippo-packs"))
        .args(["completions", shell])
        .output()
        .unwrap();
    assert!(out.status.success());
    let path = dir.join(format!("hippo-packs.{shell}"));
    std::fs::write(&path, &out.stdout).unwrap();
    path
}

/// What bash's completion offers for the words typed (the last one being completed), one a
/// line, sorted.
fn bash(words: &[&str]) -> Vec<String> {
    let t = tempfile::tempdir().unwrap();
    let file = script("bash", t.path());
    let quoted: Vec<String> = words.iter().map(|w| format!("'{w}'")).collect();
    let program = format!(
        r#"source '{}'
COMP_WORDS=({})
COMP_CWORD={}
COMP_LINE="${{COMP_WORDS[*]}}"
COMP_POINT=${{#COMP_LINE}}
f=$(complete -p hippo-packs | sed -E 's/.*-F ([^ ]+).*/\1/')
"$f" hippo-packs "${{COMP_WORDS[COMP_CWORD]}}" "${{COMP_WORDS[COMP_CWORD-1]}}"
printf '%s\n' "${{COMPREPLY[@]}}"
"#,
        file.display(),
        quoted.join(" "),
        words.len() - 1
    );
    let out = Command::new("bash")
        .args(["--norc", "--noprofile", "-c", &program])
        .current_dir(t.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut got: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    got.sort();
    got
}

#[test]
fn bash_completes_commands_and_their_options() {
    assert_eq!(
        bash(&["hippo-packs", "check", "--f"]),
        ["--fix", "--format"]
    );
    assert_eq!(
        bash(&["hippo-packs", "check", "--d"]),
        ["--deny-warnings", "--diff"]
    );
    assert_eq!(
        bash(&["hippo-packs", "test", "--pr"]),
        ["--print-prompts", "--prompts-dir"]
    );
    assert_eq!(
        bash(&["hippo-packs", "check", "--format", ""]),
        ["concise", "full", "github", "json", "sarif", "text"]
    );
    assert_eq!(bash(&["hippo-packs", "in"]), ["init"]);
    // Control: a command that does not exist completes to nothing of ours.
    assert_eq!(bash(&["hippo-packs", "chek", "--f"]), Vec::<String>::new());
}

#[test]
fn bash_never_offers_hidden_commands_or_options() {
    let commands = bash(&["hippo-packs", ""]);
    assert!(commands.contains(&"check".to_string()), "{commands:?}");
    assert!(
        !commands.contains(&"stub-model".to_string()),
        "{commands:?}"
    );
    assert_eq!(bash(&["hippo-packs", "st"]), Vec::<String>::new());
    assert_eq!(bash(&["hippo-packs", "test", "--mo"]), Vec::<String>::new());
    assert_eq!(bash(&["hippo-packs", "check", "--j"]), Vec::<String>::new());
    assert_eq!(
        bash(&["hippo-packs", "test", "--j"]),
        ["--junit"],
        "control"
    );
}

/// Runs `program` in `shell` with the script at `$SCRIPT`; its standard output.
fn run_in(shell: &str, program: &str) -> String {
    let t = tempfile::tempdir().unwrap();
    let file = script(shell, t.path());
    let out = Command::new(shell)
        .args(["-c", program])
        .env("SCRIPT", &file)
        .current_dir(t.path())
        .output()
        .unwrap_or_else(|e| panic!("{shell}: {e}"));
    assert!(
        out.status.success(),
        "{shell}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
#[cfg_attr(
    not(feature = "shells"),
    ignore = "needs fish: .ci/run installs it and turns on the `shells` feature"
)]
fn fish_completes_and_hides_what_is_hidden() {
    let got = run_in(
        "fish",
        "source $SCRIPT; complete -C 'hippo-packs check --f'; echo ==; complete -C 'hippo-packs st'; echo ==; complete -C 'hippo-packs test --mo'",
    );
    let parts: Vec<&str> = got.split("==\n").collect();
    assert!(parts[0].contains("--format"), "{got}");
    assert!(!parts[1].contains("stub-model"), "{got}");
    assert!(!parts[2].contains("--model-command"), "{got}");
    assert!(
        parts[1].contains("test"),
        "control: visible commands are offered: {got}"
    );
}

#[test]
#[cfg_attr(
    not(feature = "shells"),
    ignore = "needs zsh: .ci/run installs it and turns on the `shells` feature"
)]
fn zsh_loads_the_script_and_hides_what_is_hidden() {
    // zsh has no non-interactive "complete this line"; the script must load into compinit and
    // register the function, and the hidden names must be absent from what it can offer.
    let got = run_in(
        "zsh",
        "autoload -Uz compinit && compinit -u -D; source $SCRIPT; print -r -- ${_comps[hippo-packs]}; whence -w _hippo-packs",
    );
    assert!(got.contains("_hippo-packs"), "{got}");
    let text = run_in("zsh", "cat $SCRIPT");
    assert!(!text.contains("stub-model") && !text.contains("model-command"));
    assert!(
        text.contains("--deny-warnings"),
        "control: options are there"
    );
}

#[test]
fn bash_completes_rule_ids_after_rules() {
    assert_eq!(
        bash(&["hippo-packs", "rules", "shell-"]),
        ["shell-text"],
        "a rule id, not a file name"
    );
    let all = bash(&["hippo-packs", "rules", ""]);
    assert!(all.contains(&"invisible-character".to_string()), "{all:?}");
    // Control: where a folder goes, no rule id is offered.
    assert!(!bash(&["hippo-packs", "check", "shell-"]).contains(&"shell-text".to_string()));
}

#[test]
fn no_value_help_breaks_a_shells_quotes() {
    // zsh reads `'...'` around a value spec and fish `"..."`: a quote inside a value's help
    // ends it early, and the shell then offers the rest of the help as values (`a`, `pack,
    // byte for byte`).
    for shell in ["zsh", "fish"] {
        let out = Command::new(env!("CARGO_BIN_EXE_hippo-packs"))
            .args(["completions", shell])
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        let format = text
            .lines()
            .find(|l| l.contains("text\\:\"") || l.contains("text\\t"))
            .unwrap_or_else(|| panic!("{shell}: no --format values"));
        assert!(!format.contains("hippo's"), "{shell}: {format}");
        assert!(
            format.contains("Writing a pack"),
            "control: {shell}: {format}"
        );
    }
}

#[test]
#[cfg_attr(
    not(feature = "shells"),
    ignore = "needs fish: .ci/run installs it and turns on the `shells` feature"
)]
fn fish_completes_rule_ids_and_only_real_format_values() {
    let got = run_in(
        "fish",
        "source $SCRIPT; complete -C 'hippo-packs rules shell-'; echo ==; complete -C 'hippo-packs check --format '",
    );
    let parts: Vec<&str> = got.split("==\n").collect();
    assert!(parts[0].contains("shell-text"), "{got}");
    // fish sorts what it offers (some releases by name, others in the script's order).
    let mut values: Vec<&str> = parts[1]
        .lines()
        .filter_map(|l| l.split('\t').next())
        .collect();
    values.sort_unstable();
    assert_eq!(
        values,
        ["concise", "full", "github", "json", "sarif", "text"],
        "{got}"
    );
}

/// The README's completion and manual lines, run as written in a fresh home with the binary in
/// `~/.cargo/bin` (where `cargo install` puts it): every file is written, bash's script loads,
/// and `man` finds the page by its name.
#[test]
fn the_readme_install_lines_work_as_written() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let start = readme
        .find("mkdir -p ~/.local/share/bash-completion")
        .expect("the lines");
    let end = start + readme[start..].find("```").unwrap();
    let lines = &readme[start..end];
    let home = tempfile::tempdir().unwrap();
    let bin = home.path().join(".cargo/bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::copy(env!("CARGO_BIN_EXE_hippo-packs"), bin.join("hippo-packs")).unwrap();
    let path = format!("{}:/usr/bin:/bin", bin.display());
    let out = Command::new("bash")
        .args(["--norc", "--noprofile", "-e", "-c", lines])
        .env("HOME", home.path())
        .env("PATH", &path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for f in [
        ".local/share/bash-completion/completions/hippo-packs",
        ".zfunc/_hippo-packs",
        ".config/fish/completions/hippo-packs.fish",
        ".cargo/share/man/man1/hippo-packs.1",
    ] {
        let written = std::fs::metadata(home.path().join(f))
            .map(|m| m.len())
            .unwrap_or(0);
        assert!(written > 100, "{f}: {written} bytes");
    }
    let has_man = Command::new("sh").args(["-c", "command -v man"]).output();
    if !has_man.is_ok_and(|o| o.status.success()) {
        eprintln!("SKIPPED man hippo-packs: no man on this machine");
        return;
    }
    let man = Command::new("man")
        .args(["-w", "hippo-packs"])
        .env("HOME", home.path())
        .env("PATH", &path)
        .env_remove("MANPATH")
        .output()
        .unwrap();
    let found = String::from_utf8_lossy(&man.stdout);
    assert!(
        found
            .trim_end()
            .ends_with(".cargo/share/man/man1/hippo-packs.1"),
        "{found}"
    );
    // Control: without the binary's folder on PATH, man does not look there.
    let lost = Command::new("man")
        .args(["-w", "hippo-packs"])
        .env("HOME", home.path())
        .env("PATH", "/usr/bin:/bin")
        .env_remove("MANPATH")
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&lost.stdout).contains(".cargo/share/man"));
}
