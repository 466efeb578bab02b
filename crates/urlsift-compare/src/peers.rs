//! Where the parsers outside this binary are found on this machine, and
//! starting each one: Node.js (and the `whatwg-url` package it finds),
//! `python3` and `java` on PATH, libcurl loaded at run time. A parser that
//! is not here is said so, with what would bring it, never passed over.

use std::path::PathBuf;
use std::sync::Arc;

use crate::Error;
use crate::curl::{Curl, Lib};
use crate::engines::{Base, Engine, Native, ParserId};
use crate::java::Java;
use crate::node::{self, Node};
use crate::python::Python;

/// The external parsers' programs and library, as far as found.
pub struct Peers {
    node: Option<PathBuf>,
    python: Option<PathBuf>,
    java: Option<PathBuf>,
    /// libcurl, loaded on first ask.
    curl: Option<Result<Arc<Lib>, String>>,
}

impl Peers {
    /// Looks for the programs on PATH (libcurl is loaded when asked for).
    pub fn find() -> Peers {
        Peers {
            node: node::find(),
            python: crate::python::find(),
            java: crate::java::find(),
            curl: None,
        }
    }

    fn curl(&mut self) -> &Result<Arc<Lib>, String> {
        self.curl.get_or_insert_with(Lib::load)
    }

    /// Whether `id` can run here, or why not. `named`: it was named in
    /// `--parsers` (whatwg-url is then tried, and its own error says what
    /// is missing), not taken in by `all`.
    pub fn available(&mut self, id: ParserId, named: bool) -> Result<(), String> {
        let on_path = |found: &Option<PathBuf>, program: &str, what: &str| {
            if found.is_some() {
                Ok(())
            } else {
                Err(format!(
                    "{program} is not on PATH (the {} parser is {what})",
                    id.name()
                ))
            }
        };
        match id {
            ParserId::Node => on_path(&self.node, "node", "Node.js's `new URL`"),
            ParserId::WhatwgUrl => {
                on_path(&self.node, "node", "the whatwg-url package, run in Node.js")?;
                let program = self.node.as_deref().expect("checked");
                if named || node::finds_whatwg_url(program) {
                    Ok(())
                } else {
                    Err(
                        "Node.js does not find the whatwg-url package (`npm install whatwg-url`)"
                            .to_string(),
                    )
                }
            }
            ParserId::Python => on_path(&self.python, "python3", "CPython's urllib.parse"),
            ParserId::Java => on_path(&self.java, "java", "java.net.URI"),
            ParserId::Curl => self
                .curl()
                .as_ref()
                .map(|_| ())
                .map_err(|why| format!("curl: {why}")),
            _ => Ok(()),
        }
    }

    /// Starts parser `id` over `urls` (`base` for the compiled-in
    /// parsers, `base_text` for Node.js); returns it and its version, when
    /// it has one to report.
    pub fn start<'b>(
        &mut self,
        id: ParserId,
        urls: &[&str],
        base: &'b Base,
        base_text: Option<&str>,
    ) -> Result<(Box<dyn Engine + 'b>, Option<String>), Error> {
        let missing = |why: String| Error::Usage(format!("--parsers: {why}"));
        Ok(match id {
            ParserId::Node | ParserId::WhatwgUrl => {
                let program = self.node.as_deref().expect("select checked for node");
                let flavor = match id {
                    ParserId::WhatwgUrl => node::Flavor::WhatwgUrl,
                    _ => node::Flavor::Builtin,
                };
                let child = Node::start(program, flavor, urls, base_text)?;
                let version = child.version().to_string();
                (Box::new(child), Some(version))
            }
            ParserId::Python => {
                let program = self.python.as_deref().expect("select checked for python3");
                let child = Python::start(program, urls)?;
                let version = format!("CPython {}", child.version());
                (Box::new(child), Some(version))
            }
            ParserId::Java => {
                let program = self.java.as_deref().expect("select checked for java");
                let child = Java::start(program, urls)?;
                let version = format!("Java {}", child.version());
                (Box::new(child), Some(version))
            }
            ParserId::Curl => {
                let lib = Arc::clone(self.curl().as_ref().map_err(|why| missing(why.clone()))?);
                let version = lib.version.clone();
                (Box::new(Curl::new(lib, urls)), Some(version))
            }
            _ => (Box::new(Native::new(id, base)), None),
        })
    }
}
