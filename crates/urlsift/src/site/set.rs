//! [`SuffixSet`]: the sites or host suffixes a filter keeps or drops
//! (`--site`, `--host-suffix`, `--site-file`), held in one hash table
//! however many there are, and matched by hash, never by a scan: a site by
//! one probe, a host by one probe per label, right to left, until a suffix
//! that no entry ends with.

use std::fmt;
use std::path::Path;

use super::map::{MAX_KEY, SuffixHasher, SuffixMap};
use crate::host::Host;

/// A set of domains (sites or host suffixes), stored lowercase in A-label
/// form without leading or trailing dot.
///
/// ```
/// use urlsift::site::{List, SuffixSet};
///
/// let set = SuffixSet::from_lines("example.com\n# a comment\nBBC.co.uk.\n").unwrap();
/// assert!(set.contains("example.com"));
/// assert!(set.matches_host("news.bbc.co.uk"));        // a dot-suffix is listed
/// assert!(!set.matches_host("notexample.com"));
/// let site = List::builtin().registrable_domain("www.example.com").unwrap();
/// assert!(set.contains(site));                      // --site: the URL's site
/// ```
#[derive(Clone)]
pub struct SuffixSet {
    /// Every entry (`true`) and every dot-suffix of an entry (`false`
    /// unless it is an entry too): a walk from the right stops at the
    /// first suffix that is neither, since no entry ends with it.
    map: SuffixMap<bool>,
    entries: usize,
}

/// An entry that is not a domain (or IP address).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetError {
    /// The 1-based line of the entry (0 when it came from [`SuffixSet::insert`]).
    pub line: usize,
    /// The entry as written.
    pub entry: String,
    /// Why it is refused.
    pub reason: &'static str,
}

impl fmt::Display for SetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "line {}: ", self.line)?;
        }
        write!(f, "{:?}: {}", self.entry, self.reason)
    }
}

impl std::error::Error for SetError {}

impl Default for SuffixSet {
    fn default() -> Self {
        SuffixSet::new()
    }
}

impl fmt::Debug for SuffixSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SuffixSet")
            .field("len", &self.len())
            .finish()
    }
}

impl SuffixSet {
    /// An empty set.
    pub fn new() -> SuffixSet {
        SuffixSet::with_capacity(0)
    }

    /// An empty set with room for `n` entries.
    pub fn with_capacity(n: usize) -> SuffixSet {
        SuffixSet {
            map: SuffixMap::with_capacity(n),
            entries: 0,
        }
    }

    /// The set of one entry per line; empty lines and lines starting with
    /// `#` are skipped, surrounding whitespace is trimmed.
    pub fn from_lines(text: &str) -> Result<SuffixSet, SetError> {
        // At most one entry a line: size once (a count of newlines costs
        // next to nothing; growing would re-hash every key).
        let lines = memchr::memchr_iter(b'\n', text.as_bytes()).count() + 1;
        let mut set = SuffixSet::with_capacity(lines);
        for (i, line) in text.lines().enumerate() {
            let entry = line.trim();
            if entry.is_empty() || entry.starts_with('#') {
                continue;
            }
            set.insert(entry)
                .map_err(|e| SetError { line: i + 1, ..e })?;
        }
        Ok(set)
    }

    /// [`SuffixSet::from_lines`] of a file; the error names the file.
    pub fn from_file(
        path: impl AsRef<Path>,
    ) -> Result<SuffixSet, Box<dyn std::error::Error + Send + Sync>> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        SuffixSet::from_lines(&text).map_err(|e| format!("{}: {e}", path.display()).into())
    }

    /// Adds a domain: any case, Unicode or A-labels, with an optional
    /// trailing dot and an optional leading `.` or `*.` (which mean the
    /// same here: the domain and every host under it). IP addresses are
    /// kept as the URL parser serializes them. Returns whether it was new.
    pub fn insert(&mut self, entry: &str) -> Result<bool, SetError> {
        let error = |reason| SetError {
            line: 0,
            entry: entry.to_string(),
            reason,
        };
        let body = entry.strip_suffix('.').unwrap_or(entry);
        let body = body
            .strip_prefix("*.")
            .or_else(|| body.strip_prefix('.'))
            .unwrap_or(body);
        if body.is_empty() || body.split('.').any(str::is_empty) {
            return Err(error("empty label"));
        }
        let plain = body.bytes().all(|b| {
            b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'-' | b'.' | b'_')
        });
        let last = &body[body.rfind('.').map_or(0, |d| d + 1)..];
        let normal = if plain && !super::name::ends_in_a_number(last.as_bytes()) {
            std::borrow::Cow::Borrowed(body)
        } else {
            match Host::parse(body, false) {
                Ok(Host::Domain(d)) => d.into(),
                Ok(Host::Ipv4(a)) => a.to_string().into(),
                Ok(Host::Ipv6(a)) => format!("[{a}]").into(),
                _ => return Err(error("not a domain name or IP address")),
            }
        };
        if normal.len() > MAX_KEY {
            return Err(error("longer than 65535 bytes"));
        }
        let entry = self.map.entry_on_path(&normal);
        let new = !*entry;
        *entry = true;
        self.entries += usize::from(new);
        Ok(new)
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.entries
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.entries == 0
    }

    /// Whether `name` (lowercase, as a site or hostname is) is an entry;
    /// a trailing dot is ignored.
    #[inline]
    pub fn contains(&self, name: &str) -> bool {
        let name = name.as_bytes();
        let name = name.strip_suffix(b".").unwrap_or(name);
        self.map.get(SuffixHasher::of(name), name) == Some(&true)
    }

    /// Hints the CPU to load what [`SuffixSet::contains`] of `name` will
    /// read (the set's filter word and first slot), for callers that know
    /// their names a few records ahead: in a set of millions, a probe
    /// otherwise waits for main memory. No effect on results.
    ///
    /// ```
    /// # let set = urlsift::site::SuffixSet::from_lines("example.com").unwrap();
    /// let sites = ["example.com", "example.org"];
    /// for s in &sites { set.prefetch(s); }
    /// let kept: Vec<_> = sites.iter().filter(|s| set.contains(s)).collect();
    /// assert_eq!(kept, [&"example.com"]);
    /// ```
    #[inline]
    pub fn prefetch(&self, name: &str) {
        let name = name.as_bytes();
        let name = name.strip_suffix(b".").unwrap_or(name);
        self.map.prefetch(SuffixHasher::of(name));
    }

    /// Whether `host` (lowercase) or one of its dot-suffixes is an entry:
    /// `a.b.example.com` matches `example.com`, `b.example.com` and itself,
    /// never `ample.com`. A trailing dot is ignored.
    #[inline]
    pub fn matches_host(&self, host: &str) -> bool {
        self.matching_suffix(host).is_some()
    }

    /// The shortest dot-suffix of `host` (lowercase) that is an entry, as
    /// a slice of `host`; a trailing dot is ignored.
    pub fn matching_suffix<'a>(&self, host: &'a str) -> Option<&'a str> {
        let bytes = host.as_bytes();
        let name = bytes.strip_suffix(b".").unwrap_or(bytes);
        if self.is_empty() || name.is_empty() {
            return None;
        }
        if name[0] == b'[' {
            // An IPv6 address has no dot-suffixes of its own.
            return self.contains(host).then_some(host);
        }
        let mut hash = SuffixHasher::new();
        let mut end = name.len();
        loop {
            // Labels are short: a byte loop beats a search call.
            let start = name[..end]
                .iter()
                .rposition(|&b| b == b'.')
                .map_or(0, |d| d + 1);
            hash = hash.push(&name[start..end]);
            match self.map.get(hash.finish(), &name[start..]) {
                Some(true) => return Some(&host[start..name.len()]),
                Some(false) if start > 0 => end = start - 1,
                _ => return None,
            }
        }
    }
}
