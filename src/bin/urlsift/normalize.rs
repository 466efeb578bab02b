//! `urlsift normalize`: each line's WHATWG href, in input order, and the
//! named profiles beyond the standard.
//!
//! Profiles work on the parsed URL's serialization and keep every byte they
//! do not remove, so each one is idempotent (apply, re-parse, apply again
//! gives the same line):
//! - `--strip-params GLOBS` removes query pairs whose name matches a glob
//!   (`*`, `?`, ASCII case-insensitive, matched against the name as written,
//!   before percent-decoding); a query left empty loses its `?`.
//! - `--sort-query` orders the pairs stably by name bytes.
//! - `--strip-fragment` drops `#...`.
//! - `--surt` prints the SURT key web archives use: for http(s), scheme,
//!   userinfo and fragment dropped, a leading `www` label dropped, host labels
//!   reversed and comma-joined, then the non-default port, `)`, path and
//!   query (`com,example)/a?b`). Other schemes with a host keep their scheme
//!   (`ftp://(org,example)/`); URLs without a host print their href. A SURT
//!   key is not a URL: it is stable (the key of a normalized URL is the
//!   key of the original) rather than re-parsable.

use std::process::ExitCode;

use urlsift::{HostKind, Url};

use crate::args::{NormalizeArgs, ProfileArgs};
use crate::output::CliError;

/// The chosen profile flags, validated.
#[derive(Default)]
pub struct Profile {
    strip_fragment: bool,
    sort_query: bool,
    strip: Vec<Vec<u8>>,
    surt: bool,
}

impl Profile {
    pub fn new(a: &ProfileArgs) -> Result<Profile, CliError> {
        let mut strip = Vec::new();
        if let Some(globs) = &a.strip_params {
            for g in globs.split(',').map(str::trim) {
                if g.is_empty() {
                    return Err(CliError::Usage(format!(
                        "--strip-params {globs:?}: empty glob (use a comma-separated list such as 'utm_*,fbclid')"
                    )));
                }
                strip.push(g.as_bytes().to_ascii_lowercase());
            }
        }
        Ok(Profile {
            strip_fragment: a.strip_fragment,
            sort_query: a.sort_query,
            strip,
            surt: a.surt,
        })
    }

    /// Appends the URL in this profile's form to `out`.
    pub fn apply(&self, url: &Url, out: &mut Vec<u8>) {
        let plain_query = !self.sort_query && self.strip.is_empty();
        if !self.surt && plain_query && !self.strip_fragment {
            out.extend_from_slice(url.href().as_bytes());
            return;
        }
        let href = url.href();
        let query = url.query();
        let fragment = url.fragment();
        let tail = query.map_or(0, |q| q.len() + 1) + fragment.map_or(0, |f| f.len() + 1);
        let before_query = &href[..href.len() - tail];
        if self.surt && !write_surt_head(url, out) {
            // No host: the href (with the other profiles) is the key.
            out.extend_from_slice(before_query.as_bytes());
        } else if !self.surt {
            out.extend_from_slice(before_query.as_bytes());
        }
        if let Some(q) = query {
            if plain_query {
                out.push(b'?');
                out.extend_from_slice(q.as_bytes());
            } else {
                self.write_query(q, out);
            }
        }
        if let Some(f) = fragment {
            if !self.strip_fragment && !self.surt {
                out.push(b'#');
                out.extend_from_slice(f.as_bytes());
            }
        }
    }

    fn write_query(&self, query: &str, out: &mut Vec<u8>) {
        let mut pairs: Vec<&str> = query
            .split('&')
            .filter(|pair| !self.strip.iter().any(|g| glob_match(g, name_of(pair))))
            .collect();
        if self.sort_query {
            pairs.sort_by(|a, b| name_of(a).cmp(name_of(b)));
        }
        if pairs.is_empty() {
            return;
        }
        out.push(b'?');
        for (i, pair) in pairs.iter().enumerate() {
            if i > 0 {
                out.push(b'&');
            }
            out.extend_from_slice(pair.as_bytes());
        }
    }
}

fn name_of(pair: &str) -> &[u8] {
    let b = pair.as_bytes();
    memchr::memchr(b'=', b).map_or(b, |i| &b[..i])
}

/// Writes the SURT form up to and including the path; false when the URL
/// has no host (nothing written).
fn write_surt_head(url: &Url, out: &mut Vec<u8>) -> bool {
    let kind = match url.host_kind() {
        Some(HostKind::Empty) | None => return false,
        Some(k) => k,
    };
    let scheme = url.scheme();
    let web = scheme == "http" || scheme == "https";
    if !web {
        out.extend_from_slice(scheme.as_bytes());
        out.extend_from_slice(b"://(");
    }
    let hostname = url.hostname();
    if kind == HostKind::Domain {
        let trimmed = hostname.strip_suffix('.').unwrap_or(hostname);
        let mut labels: Vec<&str> = trimmed.split('.').collect();
        if labels.len() > 2 && labels[0] == "www" {
            labels.remove(0);
        }
        for (i, label) in labels.iter().rev().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.extend_from_slice(label.as_bytes());
        }
    } else {
        out.extend_from_slice(hostname.as_bytes());
    }
    if !url.port().is_empty() {
        out.push(b':');
        out.extend_from_slice(url.port().as_bytes());
    }
    out.push(b')');
    out.extend_from_slice(url.pathname().as_bytes());
    true
}

/// `*` matches any run of bytes, `?` one byte; ASCII case-insensitive.
/// `glob` is already lowercase.
pub fn glob_match(glob: &[u8], name: &[u8]) -> bool {
    let (mut g, mut n) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        if g < glob.len() && (glob[g] == b'?' || glob[g] == name[n].to_ascii_lowercase()) {
            g += 1;
            n += 1;
        } else if g < glob.len() && glob[g] == b'*' {
            star = Some((g, n));
            g += 1;
        } else if let Some((sg, sn)) = star {
            g = sg + 1;
            n = sn + 1;
            star = Some((sg, sn + 1));
        } else {
            return false;
        }
    }
    glob[g..].iter().all(|&c| c == b'*')
}

/// Parses `--base`, or explains why it is unusable.
pub fn parse_base(base: &Option<String>) -> Result<Option<Url>, CliError> {
    match base {
        None => Ok(None),
        Some(b) => Url::parse(b)
            .map(Some)
            .map_err(|e| CliError::Usage(format!("--base {b:?}: {e}"))),
    }
}

pub fn run(a: NormalizeArgs) -> Result<ExitCode, CliError> {
    let setup = crate::Setup::new(&a.input, &a.output, Some(&a.policy))?;
    let profile = Profile::new(&a.profile)?;
    let base = parse_base(&a.input.base)?;
    setup.run_per_url(base.as_ref(), true, |url, _, _, out| {
        profile.apply(url, out)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn profile(args: ProfileArgs) -> Profile {
        Profile::new(&args).unwrap()
    }

    fn apply(p: &Profile, input: &str) -> String {
        let mut out = Vec::new();
        p.apply(&Url::parse(input).unwrap(), &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn globs() {
        assert!(glob_match(b"utm_*", b"utm_source"));
        assert!(glob_match(b"utm_*", b"UTM_Medium"));
        assert!(glob_match(b"utm_*", b"utm_"));
        assert!(!glob_match(b"utm_*", b"xutm_a"));
        assert!(glob_match(b"*id", b"fbclid"));
        assert!(glob_match(b"f?clid", b"fbclid"));
        assert!(!glob_match(b"fbclid", b"fbclid2"));
        assert!(glob_match(b"a*b*c", b"aXXbYYc"));
        assert!(!glob_match(b"a*b*c", b"aXXbYY"));
    }

    #[test]
    fn query_profiles() {
        let p = profile(ProfileArgs {
            sort_query: true,
            strip_params: Some("utm_*,fbclid".into()),
            ..Default::default()
        });
        assert_eq!(
            apply(&p, "https://e.com/p?b=2&utm_source=x&a=1&b=1&fbclid=z#frag"),
            "https://e.com/p?a=1&b=2&b=1#frag"
        );
        assert_eq!(
            apply(&p, "https://e.com/p?utm_a=1&fbclid=2#f"),
            "https://e.com/p#f"
        );
        assert_eq!(apply(&p, "https://e.com/p?"), "https://e.com/p?");
    }

    #[test]
    fn surt_keys() {
        let p = profile(ProfileArgs {
            surt: true,
            ..Default::default()
        });
        assert_eq!(
            apply(&p, "https://www.Example.com/Path?q=1#f"),
            "com,example)/Path?q=1"
        );
        assert_eq!(
            apply(&p, "http://user:pw@a.b.example.org:8080/"),
            "org,example,b,a:8080)/"
        );
        assert_eq!(apply(&p, "http://www.com/"), "com,www)/");
        assert_eq!(apply(&p, "http://10.0.0.1/x"), "10.0.0.1)/x");
        assert_eq!(apply(&p, "ftp://example.org/f"), "ftp://(org,example)/f");
        assert_eq!(apply(&p, "mailto:a@b.c"), "mailto:a@b.c");
    }
}
