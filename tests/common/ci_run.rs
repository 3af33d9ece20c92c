//! The one way the tests run `hippo-packs ci`: `Ci` builds the container's environment (a clean
//! one with `GITHUB_ACTIONS=true`, `GITHUB_WORKSPACE`, `GITHUB_OUTPUT`, `GITHUB_STEP_SUMMARY` and a
//! private `HOME`, then the variables, the event file and the flags a test gives) and runs the
//! binary; `CiRun` is what the run left behind. docs/architecture.md, "The tests of `ci`".
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// The environment of one `ci` run: GitHub's variables and the `INPUT_*` ones, the event (the
/// JSON that `GITHUB_EVENT_PATH` names), and the flags after `ci`.
#[derive(Clone, Debug, Default)]
pub(crate) struct Ci {
    vars: Vec<(String, String)>,
    event: Option<String>,
    flags: Vec<String>,
}

impl Ci {
    /// Only what every container gets: no input, no event, no flag.
    pub(crate) fn new() -> Ci {
        Ci::default()
    }

    /// Sets the variable `name` (a later value replaces an earlier one).
    pub(crate) fn set(&mut self, name: &str, value: &str) -> &mut Self {
        self.vars.retain(|(n, _)| n != name);
        self.vars.push((name.into(), value.into()));
        self
    }

    /// Sets each of `vars`, in order.
    pub(crate) fn set_all(&mut self, vars: &[(&str, &str)]) -> &mut Self {
        for (name, value) in vars {
            self.set(name, value);
        }
        self
    }

    /// Removes the variable `name`.
    pub(crate) fn unset(&mut self, name: &str) -> &mut Self {
        self.vars.retain(|(n, _)| n != name);
        self
    }

    /// The API the run talks to (a stand-in's URL).
    pub(crate) fn api(&mut self, url: &str) -> &mut Self {
        self.set("GITHUB_API_URL", url)
    }

    /// The event the workflow ran on: its JSON, written to the file `GITHUB_EVENT_PATH` names.
    pub(crate) fn event(&mut self, json: &str) -> &mut Self {
        self.event = Some(json.into());
        self
    }

    /// Adds flags after `ci`.
    pub(crate) fn args(&mut self, args: &[&str]) -> &mut Self {
        self.flags.extend(args.iter().map(|a| a.to_string()));
        self
    }

    /// Gives the flag `name` the value `value`, replacing a value given before.
    pub(crate) fn flag(&mut self, name: &str, value: &str) -> &mut Self {
        match self.flags.iter().position(|f| f == name) {
            Some(i) if i + 1 < self.flags.len() => self.flags[i + 1] = value.into(),
            _ => self.flags.extend([name.to_string(), value.to_string()]),
        }
        self
    }

    /// A variable's value as the run will see it.
    pub(crate) fn var(&self, name: &str) -> Option<&str> {
        self.vars
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Runs `hippo-packs ci` in `ws` (also `GITHUB_WORKSPACE`) and reads back what it wrote.
    pub(crate) fn run(&self, ws: &Path) -> CiRun {
        let home = tempfile::tempdir().unwrap();
        let output = home.path().join("output");
        let summary = home.path().join("summary.md");
        std::fs::write(&output, "").unwrap();
        std::fs::write(&summary, "").unwrap();
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_hippo-packs"));
        cmd.env_clear()
            .current_dir(ws)
            .arg("ci")
            .args(&self.flags)
            .env("HOME", home.path())
            .env("GITHUB_ACTIONS", "true")
            .env("GITHUB_WORKSPACE", ws)
            .env("GITHUB_OUTPUT", &output)
            .env("GITHUB_STEP_SUMMARY", &summary)
            .envs(self.vars.iter().map(|(k, v)| (k, v)));
        if let Some(json) = &self.event {
            let path = home.path().join("event.json");
            std::fs::write(&path, json).unwrap();
            cmd.env("GITHUB_EVENT_PATH", path);
        }
        let start = Instant::now();
        let out = cmd.output().unwrap();
        let took = start.elapsed();
        let output = std::fs::read_to_string(&output).unwrap_or_default();
        let mut run = CiRun {
            code: out.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            summary: std::fs::read_to_string(&summary).unwrap_or_default(),
            outputs: BTreeMap::new(),
            output,
            sarif: None,
            took,
        };
        match parse_outputs(&run.output) {
            Ok(outputs) => run.outputs = outputs,
            Err(e) => panic!("$GITHUB_OUTPUT: {e}\n{run}"),
        }
        run.sarif = run
            .out("sarif-file")
            .filter(|f| !f.is_empty())
            .and_then(|f| std::fs::read(ws.join(f)).ok());
        if let Some(log) = &run.sarif {
            let errors = super::sarif_schema_errors(log);
            assert!(
                errors.is_empty(),
                "`ci`'s SARIF file refused: {errors:#?}\n{run}"
            );
        }
        run
    }
}

/// What one `hippo-packs ci` run left behind.
pub(crate) struct CiRun {
    /// The exit code (-1 when a signal ended the run).
    pub(crate) code: i32,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
    /// `$GITHUB_STEP_SUMMARY` as written.
    pub(crate) summary: String,
    /// The outputs, read from `$GITHUB_OUTPUT`.
    pub(crate) outputs: BTreeMap<String, String>,
    /// `$GITHUB_OUTPUT` as written (the delimiter form).
    pub(crate) output: String,
    /// The SARIF file the `sarif-file` output names, read from the workspace (and by both SARIF
    /// readers, [`super::valid_sarif`]); `None` when there is no such output or no such file.
    pub(crate) sarif: Option<Vec<u8>>,
    /// How long the run took.
    pub(crate) took: Duration,
}

impl CiRun {
    /// An output's value; `None` when the run did not write it.
    pub(crate) fn out(&self, name: &str) -> Option<&str> {
        self.outputs.get(name).map(String::as_str)
    }

    /// Everything the run wrote, to search for what must not be there.
    pub(crate) fn all_text(&self) -> String {
        format!(
            "{}\n{}\n{}\n{}",
            self.stdout, self.stderr, self.summary, self.output
        )
    }

    /// The workflow-command annotations printed (`::error`, `::warning`, `::notice`).
    pub(crate) fn annotations(&self) -> Vec<&str> {
        self.stdout
            .lines()
            .filter(|l| {
                l.starts_with("::error") || l.starts_with("::warning") || l.starts_with("::notice")
            })
            .collect()
    }

    /// The `::error` annotations printed.
    pub(crate) fn errors(&self) -> Vec<&str> {
        self.stdout
            .lines()
            .filter(|l| l.starts_with("::error"))
            .collect()
    }

    /// The annotations about the upload (`title=hippo-packs (upload)`).
    pub(crate) fn upload_notices(&self) -> Vec<&str> {
        self.stdout
            .lines()
            .filter(|l| l.contains("title=hippo-packs (upload)::"))
            .collect()
    }
}

impl std::fmt::Display for CiRun {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "exit {} after {:?}\n--- stdout\n{}--- stderr\n{}--- summary\n{}--- outputs\n{}",
            self.code, self.took, self.stdout, self.stderr, self.summary, self.output
        )
    }
}

/// `$GITHUB_OUTPUT` in the runner's delimiter form (`name<<D`, value lines, `D`), the only form
/// `ci` writes: a plain `name=value` line, a delimiter not of the form `ghadelimiter_…`, a
/// value without its closing delimiter or a name written twice is an error.
pub(crate) fn parse_outputs(text: &str) -> Result<BTreeMap<String, String>, String> {
    let mut out = BTreeMap::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let Some((name, delimiter)) = line.split_once("<<") else {
            return Err(format!("not the delimiter form: {line:?}"));
        };
        if !delimiter.starts_with("ghadelimiter_") {
            return Err(format!("not a runner's delimiter: {line:?}"));
        }
        let mut value = Vec::new();
        let mut closed = false;
        for l in lines.by_ref() {
            if l == delimiter {
                closed = true;
                break;
            }
            value.push(l);
        }
        if !closed {
            return Err(format!("{name}: no closing {delimiter}"));
        }
        if out.insert(name.to_string(), value.join("\n")).is_some() {
            return Err(format!("{name} written twice"));
        }
    }
    Ok(out)
}
