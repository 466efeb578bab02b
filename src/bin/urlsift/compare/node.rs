//! The parsers that run in Node.js, each in one child process: `node`,
//! Node.js's own `new URL(input, base)` (what many users mean by "the
//! browser's parser"), and `whatwg-url`, the npm package that is the URL
//! Standard's reference implementation (kept by the standard's editors,
//! used by jsdom), loaded with `require` as Node.js finds packages: from a
//! `node_modules` directory in or above the working directory, or from
//! `NODE_PATH`.
//!
//! The URLs are streamed to the child once, one JSON string per line, and
//! it keeps them in memory. Then it answers commands, one at a time, so
//! neither side ever waits on a full pipe while the other waits on it:
//! `diff` streams back one line per URL (the getters as a JSON array, or
//! `{"error": message}`), `round` times one pass in the child with
//! `process.hrtime` and answers `{"ns", "valid", "bytes"}`. A round's work
//! is the same as the Rust parsers' (parse, read `href.length`; an href is
//! ASCII, so its length in UTF-16 units is its length in bytes). The child
//! runs on one thread whatever `-j` says.

use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::Value;

use super::engines::{Engine, FIELDS, Parsed, Round, Work};
use crate::output::CliError;

/// The child's program.
const SCRIPT: &str = r#"
'use strict';
const rl = require('readline').createInterface({ input: process.stdin, crlfDelay: Infinity });
let count = -1, base, urls = [], out = [];
let URL = globalThis.URL, version = process.version, loadError = null;
// The package's own version, from the package.json above its main file.
const versionOf = (name) => {
  const path = require('path'), fs = require('fs');
  let dir = path.dirname(require.resolve(name));
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const p = JSON.parse(fs.readFileSync(file, 'utf8'));
      if (p.name === name) return p.version;
    }
    const up = path.dirname(dir);
    if (up === dir) return '?';
    dir = up;
  }
};
const flush = () => { if (out.length) { process.stdout.write(out.join('\n') + '\n'); out = []; } };
const emit = (s) => { out.push(s); if (out.length >= 1024) flush(); };
const getters = (u) => [u.href, u.protocol, u.username, u.password, u.host, u.hostname,
  u.port, u.pathname, u.search, u.hash, u.origin];
const ready = () => {
  let error = null;
  if (base !== undefined && loadError === null) {
    try { new URL(base); } catch (e) { error = String(e.message); }
  }
  emit(JSON.stringify({ ready: true, version, error, loadError })); flush();
};
rl.on('line', (line) => {
  if (count < 0) {
    const h = JSON.parse(line);
    count = h.count; base = h.base === null ? undefined : h.base;
    if (h.package !== null) {
      try {
        URL = require(h.package).URL;
        if (typeof URL !== 'function') throw new Error('it exports no URL class');
        version = versionOf(h.package) + ' (Node.js ' + process.version + ')';
      } catch (e) { loadError = String(e.message).split('\n')[0]; }
    }
    if (count === 0) ready();
  } else if (urls.length < count) {
    urls.push(JSON.parse(line));
    if (urls.length === count) ready();
  } else if (line === 'diff') {
    for (const s of urls) {
      let r;
      try { r = getters(new URL(s, base)); } catch (e) { r = { error: String(e.message) }; }
      emit(JSON.stringify(r));
    }
    flush();
  } else if (line === 'round') {
    let valid = 0, bytes = 0;
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < urls.length; i++) {
      try { bytes += new URL(urls[i], base).href.length; valid++; } catch (e) {}
    }
    const ns = Number(process.hrtime.bigint() - t0);
    emit(JSON.stringify({ ns, valid, bytes })); flush();
  } else if (line === 'quit') {
    process.exit(0);
  }
});
"#;

/// `node` on PATH, if any.
pub fn find() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join("node"))
        .find(|p| p.is_file())
}

/// What a child parses with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flavor {
    /// Node.js's own `URL`.
    Builtin,
    /// The `whatwg-url` package's `URL`.
    WhatwgUrl,
}

impl Flavor {
    fn name(self) -> &'static str {
        match self {
            Flavor::Builtin => "node",
            Flavor::WhatwgUrl => "whatwg-url",
        }
    }

    /// The npm package to `require`, if any.
    fn package(self) -> Option<&'static str> {
        match self {
            Flavor::Builtin => None,
            Flavor::WhatwgUrl => Some("whatwg-url"),
        }
    }
}

/// Whether Node.js (`program`) finds the `whatwg-url` package from the
/// working directory (what `--parsers all` asks before including it).
pub fn finds_whatwg_url(program: &Path) -> bool {
    Command::new(program)
        .args(["-e", "require.resolve('whatwg-url')"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// The running child.
pub struct Node {
    flavor: Flavor,
    child: Child,
    stdin: BufWriter<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    count: usize,
    /// The index of the next `diff` result.
    next: usize,
    line: String,
    /// `process.version`.
    pub version: String,
}

fn failed(flavor: Flavor, what: impl std::fmt::Display) -> CliError {
    CliError::Usage(format!("{}: {what}", flavor.name()))
}

impl Node {
    /// Starts `program` parsing with `flavor`, sends it `urls` and waits
    /// until it holds them all.
    pub fn start(
        program: &Path,
        flavor: Flavor,
        urls: &[&str],
        base: Option<&str>,
    ) -> Result<Node, CliError> {
        let mut child = Command::new(program)
            .args(["-e", SCRIPT])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| failed(flavor, format!("cannot start {}: {e}", program.display())))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let mut node = Node {
            flavor,
            child,
            stdin: BufWriter::with_capacity(1 << 16, stdin),
            stdout: BufReader::with_capacity(1 << 16, stdout),
            count: urls.len(),
            next: 0,
            line: String::new(),
            version: String::new(),
        };
        let header =
            serde_json::json!({ "count": urls.len(), "base": base, "package": flavor.package() });
        node.send(&header.to_string())?;
        for url in urls {
            node.send(&serde_json::to_string(url).expect("a string is JSON"))?;
        }
        // The child answers once it holds every URL.
        node.flush()?;
        let ready = node.receive()?;
        if let Some(error) = ready.get("loadError").and_then(Value::as_str) {
            return Err(failed(
                flavor,
                format!(
                    "Node.js cannot load the whatwg-url package ({error}): install it where \
                     Node.js looks, `npm install whatwg-url` in the working directory, or \
                     point NODE_PATH at the node_modules directory that holds it"
                ),
            ));
        }
        if let Some(error) = ready.get("error").and_then(Value::as_str) {
            return Err(failed(
                flavor,
                format!("--base {base:?} is rejected: {error}"),
            ));
        }
        node.version = ready["version"].as_str().unwrap_or("?").to_string();
        Ok(node)
    }

    /// Writes one line (buffered: see [`Node::flush`]).
    fn send(&mut self, line: &str) -> Result<(), CliError> {
        self.stdin
            .write_all(line.as_bytes())
            .and_then(|()| self.stdin.write_all(b"\n"))
            .map_err(|e| {
                failed(
                    self.flavor,
                    format!("the child process stopped reading: {e}"),
                )
            })
    }

    fn flush(&mut self) -> Result<(), CliError> {
        self.stdin.flush().map_err(|e| {
            failed(
                self.flavor,
                format!("the child process stopped reading: {e}"),
            )
        })
    }

    /// Sends a command and makes sure the child sees it.
    fn command(&mut self, command: &str) -> Result<(), CliError> {
        self.send(command)?;
        self.flush()
    }

    fn receive(&mut self) -> Result<Value, CliError> {
        self.line.clear();
        match self.stdout.read_line(&mut self.line) {
            Ok(0) => Err(failed(
                self.flavor,
                "the child process ended early (see its message above)",
            )),
            Ok(_) => serde_json::from_str(&self.line).map_err(|e| {
                failed(
                    self.flavor,
                    format!("unexpected answer {:?}: {e}", self.line),
                )
            }),
            Err(e) => Err(failed(
                self.flavor,
                format!("cannot read the child's answer: {e}"),
            )),
        }
    }
}

impl Engine for Node {
    fn parse(&mut self, index: usize, _: &str) -> Result<Parsed, CliError> {
        assert_eq!(index, self.next, "node results are read in corpus order");
        if index == 0 {
            self.command("diff")?;
        }
        self.next = (index + 1) % self.count.max(1);
        let answer = self.receive()?;
        if let Some(message) = answer.get("error") {
            return Ok(Parsed::Failed(message.as_str().unwrap_or("?").to_string()));
        }
        let values: Vec<String> = match answer {
            Value::Array(v) => v
                .into_iter()
                .map(|x| x.as_str().map(str::to_string))
                .collect::<Option<_>>()
                .unwrap_or_default(),
            _ => Vec::new(),
        };
        let values: [String; 11] = values.try_into().map_err(|_| {
            failed(
                self.flavor,
                format!("expected {} getters, got {:?}", FIELDS.len(), self.line),
            )
        })?;
        Ok(Parsed::Values(Box::new(values)))
    }

    fn round(&mut self, _: &[&str], _: Option<&rayon::ThreadPool>) -> Result<Round, CliError> {
        self.command("round")?;
        let answer = self.receive()?;
        let number = |key: &str| {
            answer[key]
                .as_u64()
                .ok_or_else(|| failed(self.flavor, format!("no {key} in {:?}", self.line)))
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

impl Drop for Node {
    fn drop(&mut self) {
        // It exits on `quit`; `kill` only if it hangs.
        let _ = self.command("quit");
        for _ in 0..200 {
            if self.child.try_wait().ok().flatten().is_some() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
