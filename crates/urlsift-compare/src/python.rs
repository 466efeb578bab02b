//! `--parsers python`: CPython's `urllib.parse.urlsplit`, in a child
//! process (`python3` on PATH) speaking `child.rs`'s protocol. Its parts
//! are what a Python program reads: `scheme`, `username`, `password`,
//! `hostname` (lowercased, IPv6 without brackets), `port`, `path`,
//! `query`, `fragment`; a `ValueError`, from `urlsplit` or from reading
//! `.port`, means invalid. A timed pass does that per URL and counts the
//! UTF-8 bytes of `geturl()`.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::Error;
use crate::child::{Child, on_path};
use crate::engines::{Engine, Parsed, Parts, Round};

/// The child's program.
const SCRIPT: &str = r#"
import json, platform, sys, time
from urllib.parse import urlsplit
lines = sys.stdin.buffer
out = sys.stdout
header = json.loads(lines.readline())
urls = [json.loads(lines.readline()) for _ in range(header["count"])]
out.write(json.dumps({"ready": True, "version": platform.python_version(), "error": None, "loadError": None}) + "\n")
out.flush()
def parts(s):
    u = urlsplit(s)
    port = u.port  # a ValueError for a bad port
    return [u.scheme, u.username, u.password, u.hostname, None if port is None else str(port),
            u.path, u.query, u.fragment, u.geturl()]
for command in lines:
    command = command.strip()
    if command == b"diff":
        batch = []
        for s in urls:
            try:
                answer = {"parts": parts(s)}
            except ValueError as e:
                answer = {"error": str(e)}
            batch.append(json.dumps(answer))
            if len(batch) >= 1024:
                out.write("\n".join(batch) + "\n")
                batch = []
        if batch:
            out.write("\n".join(batch) + "\n")
        out.flush()
    elif command == b"round":
        valid = 0
        size = 0
        t0 = time.perf_counter_ns()
        for s in urls:
            try:
                u = urlsplit(s)
                u.port
                size += len(u.geturl().encode("utf-8", "surrogatepass"))
                valid += 1
            except ValueError:
                pass
        ns = time.perf_counter_ns() - t0
        out.write(json.dumps({"ns": ns, "valid": valid, "bytes": size}) + "\n")
        out.flush()
    elif command == b"quit":
        break
"#;

/// `python3` on PATH, if any.
pub fn find() -> Option<PathBuf> {
    on_path("python3")
}

/// The running child.
pub struct Python {
    child: Child,
}

impl Python {
    /// Starts `program` with the URLs.
    pub fn start(program: &Path, urls: &[&str]) -> Result<Python, Error> {
        let header = serde_json::json!({ "base": null });
        let (child, _) = Child::start("python", program, &["-c", SCRIPT], header, urls)?;
        Ok(Python { child })
    }

    /// The version the child reported.
    pub fn version(&self) -> &str {
        &self.child.version
    }
}

impl Engine for Python {
    fn parse(&mut self, index: usize, _: &str) -> Result<Parsed, Error> {
        let answer = self.child.result(index)?;
        parts_answer("python", &answer, self.child.last_line())
    }

    fn round(&mut self, _: &[&str], _: Option<&rayon::ThreadPool>) -> Result<Round, Error> {
        self.child.round()
    }
}

/// A child's answer for one URL: `{"parts": [scheme, username,
/// password, host, port, path, query, fragment, url]}` (nulls where it
/// sees none) or `{"error": message}`.
pub fn parts_answer(name: &'static str, answer: &Value, line: &str) -> Result<Parsed, Error> {
    if let Some(message) = answer.get("error") {
        return Ok(Parsed::Failed(message.as_str().unwrap_or("?").to_string()));
    }
    let bad = || crate::child::failed(name, format!("expected the parts of a URL, got {line:?}"));
    let values = answer
        .get("parts")
        .and_then(Value::as_array)
        .ok_or_else(bad)?;
    if values.len() != 9 {
        return Err(bad());
    }
    let part = |i: usize| values[i].as_str().map(str::to_string);
    Ok(Parsed::Parts(Box::new(Parts {
        scheme: part(0),
        username: part(1),
        password: part(2),
        host: part(3),
        port: part(4),
        path: part(5),
        query: part(6),
        fragment: part(7),
        url: part(8).unwrap_or_default(),
    })))
}
