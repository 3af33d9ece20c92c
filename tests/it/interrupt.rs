//! An interrupted `test` (SIGINT, SIGTERM, SIGHUP sent to a real run while its model command is
//! running) removes its temporary folders, ends the model command, and exits with 128 + the
//! signal's number (docs/exit-codes.md).

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_hippo-packs");

fn good_pack() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs/decision-log")
}

/// A slow stand-in model: writes its process id where the test can read it, then sleeps.
fn slow_model(dir: &Path) -> (String, PathBuf) {
    let pid = dir.join("model.pid");
    let script = dir.join("slow-model.sh");
    std::fs::write(
        &script,
        format!(
            "echo $$ > '{}.tmp'\nmv '{0}.tmp' '{0}'\nexec sleep 30\n",
            pid.display()
        ),
    )
    .unwrap();
    (format!("sh {}", script.display()), pid)
}

/// Starts `test` with the slow model and a TMPDIR of its own; returns once the model runs.
fn start(dir: &Path, tmp: &Path) -> (Child, i32) {
    let (command, pid_file) = slow_model(dir);
    let mut child = Command::new(BIN)
        .args([
            "test",
            good_pack().to_str().unwrap(),
            "--model-command",
            &command,
        ])
        .env("TMPDIR", tmp)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Ok(text) = std::fs::read_to_string(&pid_file) {
            return (child, text.trim().parse().unwrap());
        }
        if Instant::now() > deadline || child.try_wait().unwrap().is_some() {
            child.kill().ok();
            child.wait().ok();
            panic!("the model command never started");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Waits for the run to end; its exit code (`None`: ended by a signal).
fn finish(mut child: Child) -> Option<i32> {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code();
        }
        if Instant::now() > deadline {
            child.kill().ok();
            child.wait().ok();
            panic!("the run did not end after the signal");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Whether a process runs (a zombie waiting for its reaper does not).
fn running(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
        s.rsplit_once(") ")
            .is_some_and(|(_, rest)| !rest.starts_with('Z'))
    })
}

fn entries(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

fn signal(pid: u32, sig: i32) {
    // SAFETY: kill(2) of the child this test started; no memory is touched.
    assert_eq!(unsafe { libc::kill(pid as i32, sig) }, 0);
}

#[test]
fn an_interrupted_test_removes_its_folders_and_exits_128_plus_the_signal() {
    for round in 0..3 {
        for (sig, code) in [
            (libc::SIGINT, 130),
            (libc::SIGTERM, 143),
            (libc::SIGHUP, 129),
        ] {
            let t = tempfile::tempdir().unwrap();
            let tmp = t.path().join("tmp");
            std::fs::create_dir(&tmp).unwrap();
            let (child, model) = start(t.path(), &tmp);
            assert!(
                entries(&tmp)
                    .iter()
                    .any(|e| e.starts_with("hippo-packs-test-")),
                "the run's folder is in TMPDIR while it runs"
            );
            signal(child.id(), sig);
            assert_eq!(finish(child), Some(code), "round {round}, signal {sig}");
            assert_eq!(entries(&tmp), Vec::<String>::new(), "TMPDIR is left clean");
            let deadline = Instant::now() + Duration::from_secs(5);
            while running(model) && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(10));
            }
            assert!(!running(model), "the model command was ended");
        }
    }
}

#[test]
fn control_a_kill_that_cannot_be_caught_leaves_the_folder() {
    // SIGKILL gives the run no chance to clean up: the check above would see what is left.
    let t = tempfile::tempdir().unwrap();
    let tmp = t.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let (child, model) = start(t.path(), &tmp);
    signal(child.id(), libc::SIGKILL);
    assert_eq!(finish(child), None, "ended by the signal, no exit code");
    assert!(
        entries(&tmp)
            .iter()
            .any(|e| e.starts_with("hippo-packs-test-"))
    );
    // SAFETY: kill(2) of the model command's process group, which the killed run left behind.
    unsafe {
        libc::kill(-model, libc::SIGKILL);
    }
}
