//! The parsers that run in Node.js, each in one child process: `node`,
//! Node.js's own `new URL(input, base)` (what many users mean by "the
//! browser's parser"), and `whatwg-url`, the npm package that is the URL
//! Standard's reference implementation (kept by the standard's editors,
//! used by jsdom), loaded with `require` as Node.js finds packages: from a
//! `node_modules` directory in or above the working directory, or from
//! `NODE_PATH`.
//!
//! The child speaks `child.rs`'s protocol: `diff` answers the getters as a
//! JSON array, and `round` times one pass with `process.hrtime`, doing the
//! Rust parsers' work (parse, read `href.length`; an href is ASCII, so its
//! length in UTF-16 units is its length in bytes).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

use crate::Error;
use crate::child::{Child, failed, on_path};
use crate::engines::{Engine, FIELDS, Parsed, Round};

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
    on_path("node")
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
}

impl Node {
    /// Starts `program` parsing with `flavor`, sends it `urls` and waits
    /// until it holds them all.
    pub fn start(
        program: &Path,
        flavor: Flavor,
        urls: &[&str],
        base: Option<&str>,
    ) -> Result<Node, Error> {
        let header = serde_json::json!({ "base": base, "package": flavor.package() });
        let (child, ready) = Child::start(flavor.name(), program, &["-e", SCRIPT], header, urls)?;
        if let Some(error) = ready.get("loadError").and_then(Value::as_str) {
            return Err(failed(
                flavor.name(),
                format!(
                    "Node.js cannot load the whatwg-url package ({error}): install it where \
                     Node.js looks, `npm install whatwg-url` in the working directory, or \
                     point NODE_PATH at the node_modules directory that holds it"
                ),
            ));
        }
        if let Some(error) = ready.get("error").and_then(Value::as_str) {
            return Err(failed(
                flavor.name(),
                format!("--base {base:?} is rejected: {error}"),
            ));
        }
        Ok(Node { flavor, child })
    }

    /// The version the child reported.
    pub fn version(&self) -> &str {
        &self.child.version
    }
}

impl Engine for Node {
    fn parse(&mut self, index: usize, _: &str) -> Result<Parsed, Error> {
        let answer = self.child.result(index)?;
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
                self.flavor.name(),
                format!(
                    "expected {} getters, got {:?}",
                    FIELDS.len(),
                    self.child.last_line()
                ),
            )
        })?;
        Ok(Parsed::Values(Box::new(values)))
    }

    fn round(&mut self, _: &[&str], _: Option<&rayon::ThreadPool>) -> Result<Round, Error> {
        self.child.round()
    }
}
