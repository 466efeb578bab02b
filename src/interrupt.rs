//! SIGINT and SIGTERM: a run stopped by one leaves nothing
//! behind. Every temp file an `-o` or `--rejects` file is written through,
//! and every spill directory, is registered here while it exists; a
//! signal removes them all and ends the process with the shell's status
//! for it (130 for SIGINT, 143 for SIGTERM). SIGHUP is left alone, so
//! that `nohup urlsift ...` keeps running when its terminal goes. A commit
//! (the rename of a finished temp file) holds the registry while it runs,
//! so a signal either comes before it (nothing is left) or after it (the
//! complete file is).

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use signal_hook::consts::{SIGINT, SIGTERM};

static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn pending() -> MutexGuard<'static, Vec<PathBuf>> {
    PENDING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Starts the thread that waits for the signals. Without it (the handler
/// could not be installed) a signal ends the process as it always did.
pub fn watch() {
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) else {
        return;
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            // Held until the process ends: no commit starts after this.
            let paths = pending();
            for path in paths.iter() {
                let _ = match fs::symlink_metadata(path) {
                    Ok(m) if m.is_dir() => fs::remove_dir_all(path),
                    _ => fs::remove_file(path),
                };
            }
            std::process::exit(128 + signal);
        }
    });
}

/// A registered temp file or directory; unregistered when dropped (the
/// owner deletes it then) or committed.
#[derive(Debug)]
pub struct Registered(Option<PathBuf>);

impl Registered {
    pub fn new(path: &Path) -> Registered {
        pending().push(path.to_path_buf());
        Registered(Some(path.to_path_buf()))
    }

    /// Runs `commit` (which moves the file into place) with no signal's
    /// clean-up in between, then forgets the path.
    pub fn commit<R>(mut self, commit: impl FnOnce() -> R) -> R {
        let mut paths = pending();
        let result = commit();
        if let Some(path) = self.0.take() {
            forget(&mut paths, &path);
        }
        result
    }
}

impl Drop for Registered {
    fn drop(&mut self) {
        if let Some(path) = self.0.take() {
            forget(&mut pending(), &path);
        }
    }
}

/// A run's own temp directory in `tmp_dir` (the system's by default),
/// made before any work (a directory that cannot take one fails the run
/// then, not midway) and registered: a signal removes it with what it
/// holds. The directory goes when both are dropped.
pub fn run_dir(
    tmp_dir: Option<&Path>,
    prefix: &str,
) -> Result<(tempfile::TempDir, Registered), crate::error::CliError> {
    let tmp_dir = tmp_dir.map_or_else(std::env::temp_dir, Path::to_path_buf);
    let dir = tempfile::Builder::new()
        .prefix(prefix)
        .tempdir_in(&tmp_dir)
        .map_err(|e| {
            crate::error::CliError::Usage(format!("--tmp-dir {}: {e}", tmp_dir.display()))
        })?;
    let registered = Registered::new(dir.path());
    Ok((dir, registered))
}

/// Runs `f` with no signal's clean-up and exit in between (an upload
/// that completes an object): a signal waits for it.
pub fn uninterrupted<R>(f: impl FnOnce() -> R) -> R {
    let _held = pending();
    f()
}

fn forget(paths: &mut Vec<PathBuf>, path: &Path) {
    if let Some(i) = paths.iter().rposition(|p| p == path) {
        paths.swap_remove(i);
    }
}
