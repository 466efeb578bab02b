//! The parsers that run in a child process of their own (Node.js, Python,
//! Java): one line protocol, whatever the language.
//!
//! The URLs are streamed to the child once: a JSON header line
//! (`{"count": N, "base": ..., ...}`), then one JSON string per line; the
//! child keeps them in memory and answers `{"ready": true, "version": ...,
//! "error": ..., "loadError": ...}`. Then it answers commands, one at a
//! time, so neither side ever waits on a full pipe while the other waits
//! on it: `diff` streams back one JSON line per URL (what the parser made
//! of it, or `{"error": message}`), `round` times one pass over every URL
//! in the child and answers `{"ns", "valid", "bytes"}`, `quit` ends it.
//! A child runs on one thread whatever `-j` says.

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{ChildStdin, ChildStdout, Command, Stdio};

use serde_json::Value;

use crate::Error;
use crate::engines::{Round, Work};

/// `program` on PATH, if any.
pub fn on_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|p| p.is_file())
}

/// A running child parser.
pub struct Child {
    /// The parser's name, in messages.
    name: &'static str,
    process: std::process::Child,
    stdin: BufWriter<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    count: usize,
    /// The index of the next `diff` result.
    next: usize,
    line: String,
    /// The version the child reported.
    pub version: String,
}

/// An error of child `name`.
pub fn failed(name: &str, what: impl std::fmt::Display) -> Error {
    Error::Usage(format!("{name}: {what}"))
}

impl Child {
    /// Starts `program` with `args` as parser `name`, sends it `header`
    /// (with `count` set) and `urls`, and waits until it holds them all.
    /// Returns the child and its `ready` answer (for the caller to read
    /// `error` or `loadError` in its own words).
    pub fn start(
        name: &'static str,
        program: &Path,
        args: &[&str],
        mut header: Value,
        urls: &[&str],
    ) -> Result<(Child, Value), Error> {
        let mut process = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| failed(name, format!("cannot start {}: {e}", program.display())))?;
        let stdin = process.stdin.take().expect("piped stdin");
        let stdout = process.stdout.take().expect("piped stdout");
        let mut child = Child {
            name,
            process,
            stdin: BufWriter::with_capacity(1 << 16, stdin),
            stdout: BufReader::with_capacity(1 << 16, stdout),
            count: urls.len(),
            next: 0,
            line: String::new(),
            version: String::new(),
        };
        header["count"] = urls.len().into();
        child.send(&header.to_string())?;
        for url in urls {
            child.send(&serde_json::to_string(url).expect("a string is JSON"))?;
        }
        // The child answers once it holds every URL.
        child.flush()?;
        let ready = child.receive()?;
        child.version = ready["version"].as_str().unwrap_or("?").to_string();
        Ok((child, ready))
    }

    /// Writes one line (buffered: see [`Child::flush`]).
    fn send(&mut self, line: &str) -> Result<(), Error> {
        self.stdin
            .write_all(line.as_bytes())
            .and_then(|()| self.stdin.write_all(b"\n"))
            .map_err(|e| failed(self.name, format!("the child process stopped reading: {e}")))
    }

    fn flush(&mut self) -> Result<(), Error> {
        self.stdin
            .flush()
            .map_err(|e| failed(self.name, format!("the child process stopped reading: {e}")))
    }

    /// Sends a command and makes sure the child sees it.
    fn command(&mut self, command: &str) -> Result<(), Error> {
        self.send(command)?;
        self.flush()
    }

    fn receive(&mut self) -> Result<Value, Error> {
        self.line.clear();
        match self.stdout.read_line(&mut self.line) {
            Ok(0) => Err(failed(
                self.name,
                "the child process ended early (see its message above)",
            )),
            Ok(_) => serde_json::from_str(&self.line)
                .map_err(|e| failed(self.name, format!("unexpected answer {:?}: {e}", self.line))),
            Err(e) => Err(failed(
                self.name,
                format!("cannot read the child's answer: {e}"),
            )),
        }
    }

    /// What the child made of the `index`th URL; called for every URL in
    /// corpus order, once.
    pub fn result(&mut self, index: usize) -> Result<Value, Error> {
        assert_eq!(index, self.next, "child results are read in corpus order");
        if index == 0 {
            self.command("diff")?;
        }
        self.next = (index + 1) % self.count.max(1);
        self.receive()
    }

    /// The last answer's text, for messages.
    pub fn last_line(&self) -> &str {
        &self.line
    }

    /// One pass over every URL, timed in the child.
    pub fn round(&mut self) -> Result<Round, Error> {
        self.command("round")?;
        let answer = self.receive()?;
        let number = |key: &str| {
            answer[key]
                .as_u64()
                .ok_or_else(|| failed(self.name, format!("no {key} in {:?}", self.line)))
        };
        Ok(Round {
            nanos: number("ns")?,
            work: Work {
                valid: number("valid")?,
                href_bytes: number("bytes")?,
            },
        })
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        // It exits on `quit`; `kill` only if it hangs.
        let _ = self.command("quit");
        for _ in 0..200 {
            if self.process.try_wait().ok().flatten().is_some() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}
