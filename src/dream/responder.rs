//! The one interface to a model and to the reviewer: a prompt in, an answer out (docs/testing-packs.md,
//! "The stand-in model").
//!
//! Two implementations: [`Command`] runs a program with the prompt on standard input and reads the
//! answer from standard output, under a time limit; [`StandIn`] answers in-process exactly what
//! `hippo-packs stub-model` prints, so the two paths give the same result.

use std::io::{Read, Write};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// Something that answers a prompt.
pub trait Model: Sync {
    /// The model's reply to `prompt`, or why there is none.
    fn complete(&self, prompt: &str) -> Result<String, String>;
}

/// The stand-in, in-process: always the same answer.
#[derive(Debug, Clone)]
pub struct StandIn {
    /// The reply to every prompt.
    pub answer: String,
}

impl StandIn {
    /// The pass's model: the case's reply.
    pub(crate) fn model(reply: &str) -> Self {
        StandIn {
            answer: super::stub::answer(super::stub::Role::Model, reply, ""),
        }
    }
    /// The reviewer: the case's verdict.
    pub fn reviewer(verdict: &str) -> Self {
        StandIn {
            answer: super::stub::answer(super::stub::Role::Reviewer, "", verdict),
        }
    }
}

impl Model for StandIn {
    fn complete(&self, _prompt: &str) -> Result<String, String> {
        Ok(self.answer.clone())
    }
}

/// The most an answer may hold; past it the call fails (a runaway command).
pub(crate) const MAX_ANSWER_BYTES: usize = 4 << 20;
/// The default time limit of one call.
pub(crate) const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

/// A model command: `program args...`, the prompt on standard input, the answer on standard
/// output, killed (with its whole process group) when the time limit passes.
#[derive(Debug, Clone)]
pub(crate) struct Command {
    pub(crate) program: String,
    pub(crate) args: Vec<String>,
    pub(crate) env: Vec<(String, String)>,
    pub(crate) timeout: Duration,
}

impl Command {
    /// Splits a command line on white space (no shell: no quoting, no expansion).
    pub(crate) fn parse(line: &str) -> Option<Command> {
        let mut words = line.split_whitespace().map(str::to_string);
        Some(Command {
            program: words.next()?,
            args: words.collect(),
            env: Vec::new(),
            timeout: DEFAULT_TIMEOUT,
        })
    }

    pub(crate) fn with_env(mut self, key: &str, value: &str) -> Self {
        self.env.push((key.to_string(), value.to_string()));
        self
    }
}

impl Model for Command {
    fn complete(&self, prompt: &str) -> Result<String, String> {
        let mut cmd = std::process::Command::new(&self.program);
        cmd.args(&self.args)
            .envs(self.env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        // Held until this call is done: an interrupt kills the command's process group.
        let (mut child, _held) = crate::system::interrupt::hold(|| {
            let child = cmd.spawn()?;
            let group = i32::try_from(child.id()).unwrap_or(0);
            Ok::<_, std::io::Error>((child, crate::system::interrupt::Undo::Kill(group)))
        })
        .map_err(|e| format!("cannot run {}: {e}", self.program))?;
        let (mut stdin, mut stdout, mut stderr) =
            match (child.stdin.take(), child.stdout.take(), child.stderr.take()) {
                (Some(i), Some(o), Some(e)) => (i, o, e),
                _ => {
                    kill(&mut child);
                    return Err("cannot open the command's pipes".to_string());
                }
            };
        let input = prompt.as_bytes().to_vec();
        // A command that does not read its input must not block us: write on a thread, and a
        // closed pipe is not an error.
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(&input);
        });
        let reader = std::thread::spawn(move || {
            let mut buf = Vec::new();
            let r = (&mut stdout)
                .take(MAX_ANSWER_BYTES as u64 + 1)
                .read_to_end(&mut buf);
            // Past the limit, drain the rest so the command can finish.
            let _ = std::io::copy(&mut stdout, &mut std::io::sink());
            r.map(|_| buf)
        });
        let err_reader = std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = (&mut stderr).take(64 * 1024).read_to_end(&mut buf);
            buf
        });
        let status = wait(&mut child, Instant::now() + self.timeout, &self.program)?;
        // The process group is gone (exited or killed), so the pipes close and these end.
        let _ = writer.join();
        let out = reader.join().unwrap_or_else(|_| Ok(Vec::new()));
        let err = err_reader.join().unwrap_or_default();
        let Some(status) = status else {
            return Err(format!(
                "{} timed out after {} s",
                self.program,
                self.timeout.as_secs_f64()
            ));
        };
        let out = out.map_err(|e| format!("cannot read the answer of {}: {e}", self.program))?;
        if !status.success() {
            let first = String::from_utf8_lossy(&err);
            let first = first.lines().next().unwrap_or("").trim();
            return Err(format!("{} failed ({status}): {first}", self.program));
        }
        if out.len() > MAX_ANSWER_BYTES {
            return Err(format!(
                "{} answered more than {MAX_ANSWER_BYTES} bytes",
                self.program
            ));
        }
        String::from_utf8(out)
            .map_err(|_| format!("{} answered text that is not UTF-8", self.program))
    }
}

/// Waits for the child until `deadline`; past it, kills its process group and gives `None`.
fn wait(
    child: &mut std::process::Child,
    deadline: Instant,
    program: &str,
) -> Result<Option<std::process::ExitStatus>, String> {
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Ok(Some(status)),
            Ok(None) if Instant::now() >= deadline => {
                kill(child);
                return Ok(None);
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(e) => {
                kill(child);
                return Err(format!("cannot wait for {program}: {e}"));
            }
        }
    }
}

/// Kills the child and its process group, and reaps it.
fn kill(child: &mut std::process::Child) {
    #[cfg(unix)]
    {
        if let Ok(pid) = i32::try_from(child.id()) {
            // SAFETY: kill(2) with a negative pid signals the process group the child leads
            // (it was spawned with process_group(0)); no memory is touched.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str, timeout_ms: u64) -> Command {
        Command {
            program: "sh".into(),
            args: vec!["-c".into(), script.into()],
            env: vec![("WORD".into(), "hello".into())],
            timeout: Duration::from_millis(timeout_ms),
        }
    }

    #[test]
    fn a_command_reads_the_prompt_and_answers() {
        let c = sh("tr a-z A-Z; printf \" $WORD\"", 10_000);
        assert_eq!(c.complete("abc").unwrap(), "ABC hello");
        // A large prompt through a command that reads none of it does not hang.
        let big = "x".repeat(1 << 20);
        assert_eq!(sh("printf ok", 10_000).complete(&big).unwrap(), "ok");
    }

    #[test]
    fn a_slow_command_is_killed_at_its_time_limit() {
        let start = Instant::now();
        let e = sh("sleep 30 & sleep 30", 300).complete("x").unwrap_err();
        assert!(e.contains("timed out"), "{e}");
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the process group was killed, so the pipes closed"
        );
    }

    #[test]
    fn failures_are_errors() {
        let e = sh("echo boom >&2; exit 3", 10_000)
            .complete("x")
            .unwrap_err();
        assert!(e.contains("boom"), "{e}");
        let e = Command::parse("/nonexistent/model")
            .unwrap()
            .complete("x")
            .unwrap_err();
        assert!(e.starts_with("cannot run"), "{e}");
        let e = sh("head -c 5000000 /dev/zero", 10_000)
            .complete("x")
            .unwrap_err();
        assert!(e.contains("more than"), "{e}");
        assert!(Command::parse("  ").is_none());
    }
}
