//! `hippo-packs server` tested end to end by clients written elsewhere: pytest-lsp's (PyPI, its
//! tests in tests/lsp/, feature `pytest-lsp`) and Neovim's built-in one (Debian's `neovim`,
//! tests/lsp/neovim_smoke.lua, feature `neovim`). `.ci/run` installs both and turns the features
//! on; without them these tests are ignored with the reason. The server's own answers to a
//! client written here are in the control below, which runs everywhere.
use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_hippo-packs")
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
#[cfg_attr(
    not(feature = "pytest-lsp"),
    ignore = "needs PyPI's pytest-lsp: .ci/run installs it in target/lsp-venv and turns on the feature pytest-lsp"
)]
fn pytest_lsp_drives_the_server() {
    let python = root().join("target/lsp-venv/bin/python");
    assert!(
        python.exists(),
        "the feature pytest-lsp is on, but {} is missing (python3 -m venv target/lsp-venv && target/lsp-venv/bin/pip install pytest-lsp)",
        python.display()
    );
    let out = Command::new(&python)
        .args(["-m", "pytest", "-q", "-p", "no:cacheprovider"])
        .current_dir(root().join("tests/lsp"))
        .env("HIPPO_PACKS", bin())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    println!("{text}{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "pytest-lsp's tests failed");
    // Control: tests ran, none skipped (a test that cannot run is no pass).
    let last = text
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    assert!(
        last.contains(" passed") && !last.contains("skipped") && !last.contains("deselected"),
        "{last}"
    );
}

#[test]
#[cfg_attr(
    not(feature = "neovim"),
    ignore = "needs Debian's neovim: .ci/run installs it and turns on the feature neovim"
)]
fn neovim_sees_fixes_and_clears_a_hidden_character() {
    let t = tempfile::tempdir().unwrap();
    let pack = t.path().join("decision-log");
    common::copy_tree(&root().join("tests/packs/decision-log"), &pack);
    let prompt = pack.join("prompts/decision-log.md");
    let before = std::fs::read(&prompt).unwrap();
    let out = t.path().join("seen");
    let status = Command::new("nvim")
        .args(["--headless", "--clean", "-c"])
        .arg(format!(
            "luafile {}",
            root().join("tests/lsp/neovim_smoke.lua").display()
        ))
        .env("HIPPO_PACKS", bin())
        .env("PROMPT", &prompt)
        .env("OUT", &out)
        .stdin(Stdio::null())
        .status()
        .expect("nvim runs");
    assert!(status.success());
    let seen = std::fs::read_to_string(&out).unwrap_or_default();
    let lines: Vec<&str> = seen.lines().collect();
    // Neovim's columns are bytes of the line `é a<U+200B>b`: the U+200B is bytes 4 to 7.
    assert_eq!(
        lines,
        [
            "diagnostic invisible-character 1:4-7 U+200B ZERO WIDTH SPACE",
            "quickfix Remove U+200B ZERO WIDTH SPACE",
            "line \u{e9} ab",
            "cleared",
            "modified true",
            "exit 0",
            "stopped",
        ],
        "{seen}"
    );
    assert_eq!(std::fs::read(&prompt).unwrap(), before, "nothing written");
}

/// One message of the protocol, framed.
fn frame(body: &serde_json::Value) -> Vec<u8> {
    let b = body.to_string();
    format!("Content-Length: {}\r\n\r\n{b}", b.len()).into_bytes()
}

/// Reads framed messages until one satisfies `want`.
fn read_until(
    r: &mut impl BufRead,
    want: impl Fn(&serde_json::Value) -> bool,
) -> Vec<serde_json::Value> {
    let mut seen = Vec::new();
    loop {
        let mut len = 0;
        loop {
            let mut line = String::new();
            assert!(r.read_line(&mut line).unwrap() > 0, "the server hung up");
            if let Some(n) = line.trim_end().strip_prefix("Content-Length: ") {
                len = n.parse().unwrap();
            }
            if line == "\r\n" {
                break;
            }
        }
        let mut body = vec![0; len];
        r.read_exact(&mut body).unwrap();
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap();
        let done = want(&v);
        seen.push(v);
        if done {
            return seen;
        }
    }
}

/// Here, without either client: the server starts, publishes a finding of an opened document's
/// unsaved text, and exits 0 at `exit`; a broken pack.toml in the text shows up, the good one on
/// disk does not.
#[test]
fn the_server_answers_a_client_written_here() {
    let t = tempfile::tempdir().unwrap();
    let pack = t.path().join("decision-log");
    common::copy_tree(&root().join("tests/packs/decision-log"), &pack);
    let manifest = pack.join("pack.toml");
    let uri = format!("file://{}", manifest.display());
    let text = std::fs::read_to_string(&manifest).unwrap() + "homepage = \"x\"\n";
    let mut child = Command::new(bin())
        .arg("server")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let init = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"capabilities": {"general": {"positionEncodings": ["utf-8"]}}}});
    stdin.write_all(&frame(&init)).unwrap();
    let answer = read_until(&mut stdout, |v| v["id"] == 1);
    let caps = &answer.last().unwrap()["result"]["capabilities"];
    assert_eq!(caps["positionEncoding"], "utf-8");
    let open = serde_json::json!({"jsonrpc": "2.0", "method": "textDocument/didOpen",
        "params": {"textDocument": {"uri": uri, "languageId": "toml", "version": 1, "text": text}}});
    stdin
        .write_all(&frame(
            &serde_json::json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
        ))
        .unwrap();
    stdin.write_all(&frame(&open)).unwrap();
    let seen = read_until(&mut stdout, |v| {
        v["method"] == "textDocument/publishDiagnostics" && v["params"]["uri"] == uri
    });
    let diags = &seen.last().unwrap()["params"]["diagnostics"];
    assert_eq!(diags.as_array().map(Vec::len), Some(1), "{diags}");
    assert_eq!(diags[0]["code"], "manifest-unknown-key");
    assert_eq!(seen.last().unwrap()["params"]["version"], 1);
    for m in [
        serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}),
        serde_json::json!({"jsonrpc": "2.0", "method": "exit"}),
    ] {
        stdin.write_all(&frame(&m)).unwrap();
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
}
