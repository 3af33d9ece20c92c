//! What a run leaves behind when SIGINT, SIGTERM or SIGHUP ends it: no temporary folder and no
//! model command still running; then it exits with 128 + the signal's number (130, 143, 129;
//! docs/exit-codes.md).
//!
//! [`install`] blocks the three signals in the calling thread before any other thread starts,
//! so every thread the run starts inherits the mask and none is cut off half-way by a signal's
//! default action; one thread waits for them (`sigwait`). When one arrives, that thread kills
//! the process groups of the model commands running, removes the folders held, and exits.
//! Commands the run starts begin with an empty mask (the standard library resets it). A signal
//! the parent ignores (`nohup`) stays ignored.
//!
//! What is to be undone is held in one register ([`hold`]): a folder is made, or a command
//! started, with the register locked, so no signal falls between making it and holding it.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

/// What an interrupt undoes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Undo {
    /// A folder to remove, with everything in it.
    Remove(PathBuf),
    /// A process group to kill (a model command, started as the leader of its own group).
    Kill(i32),
}

/// Everything held now.
static HELD: Mutex<Vec<(u64, Undo)>> = Mutex::new(Vec::new());
static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

fn held() -> MutexGuard<'static, Vec<(u64, Undo)>> {
    HELD.lock().unwrap_or_else(|e| e.into_inner())
}

/// Something an interrupt would undo, until dropped (the folder removed or the command ended
/// by its owner).
#[derive(Debug)]
pub(crate) struct Held(u64);

impl Drop for Held {
    fn drop(&mut self) {
        held().retain(|(id, _)| *id != self.0);
    }
}

/// Runs `make` with the register locked and holds what it says to undo.
pub(crate) fn hold<T, E>(make: impl FnOnce() -> Result<(T, Undo), E>) -> Result<(T, Held), E> {
    let mut all = held();
    let (value, undo) = make()?;
    let id = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    all.push((id, undo));
    Ok((value, Held(id)))
}

/// The signals that end a run with its folders removed.
const SIGNALS: [libc::c_int; 3] = [libc::SIGHUP, libc::SIGINT, libc::SIGTERM];

fn signal_set() -> libc::sigset_t {
    // SAFETY: sigemptyset and sigaddset only write the set they are given, which lives here.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for s in SIGNALS {
            libc::sigaddset(&mut set, s);
        }
        set
    }
}

/// Blocks SIGHUP, SIGINT and SIGTERM and starts the thread that waits for them. Call it before
/// any other thread starts.
pub(crate) fn install() -> std::io::Result<()> {
    let set = signal_set();
    // SAFETY: pthread_sigmask only reads the set and changes this thread's mask.
    let rc = unsafe { libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) };
    if rc != 0 {
        return Err(std::io::Error::from_raw_os_error(rc));
    }
    std::thread::Builder::new()
        .name("interrupt".into())
        .spawn(move || {
            loop {
                let mut sig: libc::c_int = 0;
                // SAFETY: sigwait reads the set and writes the signal's number into `sig`.
                if unsafe { libc::sigwait(&set, &mut sig) } == 0 {
                    finish(sig);
                }
            }
        })?;
    Ok(())
}

/// Undoes everything held and exits with 128 + `sig`. The register stays locked, so nothing
/// new is held meanwhile.
fn finish(sig: libc::c_int) -> ! {
    let all = held();
    for (_, undo) in all.iter() {
        // A group id of 0 or 1 would be this run's own group or every process: never signalled.
        if let Undo::Kill(group) = undo
            && *group > 1
        {
            // SAFETY: kill(2) of a process group this run started; no memory is touched.
            unsafe {
                libc::kill(-group, libc::SIGKILL);
            }
        }
    }
    for (_, undo) in all.iter() {
        if let Undo::Remove(dir) = undo {
            remove(dir);
        }
    }
    std::process::exit(128 + sig)
}

/// Removes a folder whole; a worker may still be writing into it, so a folder that is not empty
/// yet is tried again a few times.
fn remove(dir: &Path) {
    for _ in 0..20 {
        match std::fs::remove_dir_all(dir) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                std::thread::sleep(std::time::Duration::from_millis(5))
            }
            _ => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn holds(undo: &Undo) -> bool {
        held().iter().any(|(_, u)| u == undo)
    }

    #[test]
    fn what_is_held_is_released_when_dropped() {
        let t = tempfile::tempdir().unwrap();
        let undo = Undo::Remove(t.path().join("a"));
        let (made, h) = hold(|| Ok::<_, ()>((7, undo.clone()))).unwrap();
        assert_eq!(made, 7);
        assert!(holds(&undo));
        drop(h);
        assert!(!holds(&undo), "released");
        // Control: a failed make holds nothing.
        let other = Undo::Kill(-1);
        let r = hold(|| Err::<(u8, Undo), _>("no"));
        assert!(r.is_err() && !holds(&other));
    }

    #[test]
    fn remove_takes_the_whole_folder() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path().join("run");
        std::fs::create_dir_all(d.join("s0/home")).unwrap();
        std::fs::write(d.join("s0/home/x"), "x").unwrap();
        remove(&d);
        assert!(!d.exists());
        remove(&d); // control: a folder already gone is no error
    }
}
