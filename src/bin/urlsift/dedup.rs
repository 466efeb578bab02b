//! `urlsift dedup`: keep the first occurrence of each key, in input order.
//!
//! Workers parse lines and compute keys in parallel; the main thread checks
//! each key against the seen-set in input order. Keys are compared as exact
//! bytes (the xxh3-64 hash only picks buckets and spill partitions), so two
//! different keys are never taken for duplicates. While the seen-set fits
//! the `--memory` budget, first occurrences are written as they come; past
//! the budget, the rest of the input goes to hash-partitioned spill files
//! (see `spill.rs`) that are reduced and merged back in input order.
//!
//! Keys: `href` (the line as `normalize` prints it, profiles included),
//! `no-fragment`, `origin`, `host`, `pattern` and `site` (the registrable
//! domain; a host without one, such as an IP address, is its own site). A URL without a host (or
//! with an opaque origin) is keyed by its whole href, so such URLs are only
//! merged with identical ones. Lines passed through by `--keep-invalid` are
//! keyed by their raw bytes, in a namespace of their own.

use std::io;
use std::process::ExitCode;
use std::sync::Mutex;

use urlsift::profile::Profile;
use urlsift::{HostKind, Url, UrlRef};
use xxhash_rust::xxh3::xxh3_64;

use crate::args::{DedupArgs, DedupKey};
use crate::input::{Chunk, Reason};
use crate::job::OnView;
use crate::normalize::{parse_base, profile};
use crate::output::{CliError, Sink};
use crate::pipeline::{Processed, strict_stop, write_reject};
use crate::records::{Rec, Shape};
use crate::select::{Stage, Verdict};
use crate::spill::{self, Spill};
use crate::table::{Slot, Table};
use urlsift::site::List;

/// Keys of one chunk: where each record's output line and key are, in
/// input order, with the key's xxh3-64 hash (computed here, on the
/// workers). Keys that are not a slice of the line or the input sit in
/// `keys`.
#[derive(Default)]
pub struct Keys {
    keys: Vec<u8>,
    held: Vec<Held>,
    /// Scratch for the pattern key's parameter names.
    names: Names,
}

/// One record as the writer offers it to the seen-set.
#[derive(Clone, Copy)]
struct Held {
    /// Where the record starts in the chunk's output (for a line taken
    /// from the input, where it would have started): this orders it among
    /// the passed-through invalid lines, which are in the output too.
    at: usize,
    place: Place,
    hash: u64,
}

/// Where a record's line and key are.
#[derive(Clone, Copy)]
enum Place {
    /// `out[at..end]`, terminator last; the key is `keys[key.0..key.1]`.
    Out { end: usize, key: (usize, usize) },
    /// A line already in its output form, as the input holds it:
    /// `data[start..end]` of the chunk (no terminator), its key
    /// `data[start..key_end]`. Nothing was copied for it.
    Input {
        start: usize,
        end: usize,
        key_end: usize,
    },
}

/// Parameter names as ranges of a query string (reused from URL to URL).
type Names = Vec<(usize, usize)>;

/// How many records ahead the seen-set lookups are prefetched: the table
/// slot this far ahead, then (once that slot is in cache) the key bytes it
/// points to, half as far ahead.
const PREFETCH_AHEAD: usize = 16;

/// Marks keys of passed-through invalid lines: 0xFF never starts UTF-8.
const RAW_KEY: u8 = 0xFF;
/// Arena block size: keys and lines are copied into blocks this large.
const BLOCK: usize = 1 << 20;

/// Where bytes sit in the [`Arena`].
#[derive(Clone, Copy)]
struct Span {
    block: usize,
    start: usize,
    len: usize,
}

impl Span {
    /// Where a table slot's key is.
    #[inline(always)]
    fn of(slot: &Slot) -> Span {
        Span {
            block: slot.block(),
            start: slot.start(),
            len: slot.len(),
        }
    }
}

/// Append-only storage for keys and lines: one allocation per megabyte
/// instead of one per key, and nothing is ever moved.
#[derive(Default)]
struct Arena {
    blocks: Vec<Vec<u8>>,
    allocated: usize,
}

impl Arena {
    fn push(&mut self, bytes: &[u8]) -> Span {
        self.push_after(&[], bytes)
    }

    /// Pushes `prefix` and `bytes` next to each other (in one block);
    /// returns the span of `bytes`.
    fn push_after(&mut self, prefix: &[u8], bytes: &[u8]) -> Span {
        let len = prefix.len() + bytes.len();
        let fits = self
            .blocks
            .last()
            .is_some_and(|b| b.capacity() - b.len() >= len);
        if !fits {
            let cap = BLOCK.max(len);
            self.allocated += cap;
            self.blocks.push(Vec::with_capacity(cap));
        }
        let block = self.blocks.len() - 1;
        let b = &mut self.blocks[block];
        b.extend_from_slice(prefix);
        let start = b.len();
        b.extend_from_slice(bytes);
        Span {
            block,
            start,
            len: bytes.len(),
        }
    }

    fn get(&self, s: Span) -> &[u8] {
        &self.blocks[s.block][s.start..s.start + s.len]
    }
}

struct Entry {
    key: Span,
    /// The line, kept only with `--count` (otherwise it is written at once).
    line: Option<Span>,
    seq: u64,
    count: u64,
}

/// Entries per block of [`Entries`].
const ENTRY_BLOCK: usize = 1 << 15;

/// Entries in first-occurrence order, in fixed-size blocks: growing never
/// copies (or briefly doubles) the whole set, which keeps peak memory
/// close to the budget.
#[derive(Default)]
struct Entries {
    blocks: Vec<Vec<Entry>>,
    len: usize,
}

impl Entries {
    fn push(&mut self, e: Entry) {
        if self.len.is_multiple_of(ENTRY_BLOCK) {
            self.blocks.push(Vec::with_capacity(ENTRY_BLOCK));
        }
        self.blocks.last_mut().expect("a block").push(e);
        self.len += 1;
    }

    fn get_mut(&mut self, i: u32) -> &mut Entry {
        let i = i as usize;
        &mut self.blocks[i / ENTRY_BLOCK][i % ENTRY_BLOCK]
    }

    fn iter(&self) -> impl Iterator<Item = &Entry> {
        self.blocks.iter().flatten()
    }

    /// Bytes reserved by the blocks.
    fn reserved(&self) -> usize {
        self.blocks.len() * ENTRY_BLOCK * std::mem::size_of::<Entry>()
    }
}

/// The in-memory seen-set: a hash table of keys with indexes into
/// `entries`, which are in first-occurrence order. Equal hashes are
/// confirmed byte by byte.
struct Seen {
    table: Table,
    entries: Entries,
    arena: Arena,
    budget: u64,
    count_mode: bool,
    seq: u64,
    unique: u64,
    spill: Option<(tempfile::TempDir, Spill, u64)>,
    tmp_dir: Option<std::path::PathBuf>,
}

impl Seen {
    /// Estimated memory held: arena blocks, entries and table slots.
    fn bytes(&self) -> u64 {
        (self.arena.allocated + self.entries.reserved() + self.table.bytes()) as u64
    }

    /// Starts loading the table slot a lookup of `hash` will read.
    #[inline]
    fn prefetch(&self, hash: u64) {
        if self.spill.is_none() {
            self.table.prefetch(hash);
        }
    }

    /// Starts loading the key bytes a lookup of `hash` will compare, when
    /// its table slot (prefetched earlier) names them.
    #[inline]
    fn prefetch_key(&self, hash: u64) {
        if self.spill.is_none()
            && let Some(slot) = self.table.home_slot(hash)
            && let Some(block) = self.arena.blocks.get(slot.block())
            && let Some(byte) = block.get(slot.start())
        {
            urlsift::simd::prefetch(byte);
        }
    }

    /// Records one line with its key and the key's xxh3-64 `hash`.
    fn offer(
        &mut self,
        hash: u64,
        key: &[u8],
        line: &[u8],
        sink: &mut Sink,
    ) -> Result<(), CliError> {
        let seq = self.seq;
        self.seq += 1;
        if let Some((_, spill, _)) = &mut self.spill {
            return spill.push(hash, seq, 1, key, line).map_err(spill_err);
        }
        let arena = &self.arena;
        let found = self.table.find(hash, |slot| {
            slot.hash == hash && arena.get(Span::of(slot)) == key
        });
        if let Some(slot) = found {
            if self.count_mode {
                // The entry's index sits just before the key.
                let at = Span::of(&slot);
                let index = &self.arena.blocks[at.block][at.start - 4..at.start];
                let index = u32::from_le_bytes(index.try_into().expect("4 bytes"));
                self.entries.get_mut(index).count += 1;
            }
            return Ok(());
        }
        let index = u32::try_from(self.entries.len)
            .map_err(|_| CliError::Usage("dedup: over 4 billion keys in memory".into()))?;
        let key_span = if self.count_mode {
            self.arena.push_after(&index.to_le_bytes(), key)
        } else {
            self.arena.push(key)
        };
        let Some(slot) = Slot::new(hash, key_span.block, key_span.start, key_span.len) else {
            // A key too long for a slot (32 MiB or more), or an arena past
            // 256 GiB: the seen-set moves to disk, where keys of any length
            // go, this record first among those still to decide.
            self.seq = seq;
            self.start_spill()?;
            self.seq = seq + 1;
            let (_, spill, _) = self.spill.as_mut().expect("spilling");
            return spill.push(hash, seq, 1, key, line).map_err(spill_err);
        };
        if self.count_mode {
            // Counts and lines are kept for the end, in first-occurrence
            // order. Without --count the line goes out now and the table
            // alone is the seen-set (no entry: a seen-set of a million
            // keys touches 70 MB less fresh memory).
            let line = Some(self.arena.push(line));
            self.entries.push(Entry {
                key: key_span,
                line,
                seq,
                count: 1,
            });
        } else {
            sink.record(line)?;
            self.unique += 1;
        }
        self.table.insert(slot);
        if self.bytes() > self.budget {
            self.start_spill()?;
        }
        Ok(())
    }

    /// Moves the seen-set to disk; from now on every record is spilled.
    fn start_spill(&mut self) -> Result<(), CliError> {
        let base = match &self.tmp_dir {
            Some(d) => d.clone(),
            None => std::env::temp_dir(),
        };
        let dir = tempfile::Builder::new()
            .prefix("urlsift-dedup-")
            .tempdir_in(&base)
            .map_err(|error| CliError::Output {
                name: format!("spill directory in {}", base.display()),
                error,
            })?;
        let mut spill = Spill::create(dir.path(), "p", 0).map_err(spill_err)?;
        if self.count_mode {
            for e in self.entries.iter() {
                let line = e.line.map_or(&[][..], |l| self.arena.get(l));
                let key = self.arena.get(e.key);
                spill
                    .push(xxh3_64(key), e.seq, e.count, key, line)
                    .map_err(spill_err)?;
            }
        } else {
            // Keys whose lines are already written: they only need to be
            // known as seen (sequence 0 is before the spill's start).
            for slot in self.table.slots() {
                let key = self.arena.get(Span::of(&slot));
                spill.push(slot.hash, 0, 1, key, &[]).map_err(spill_err)?;
            }
        }
        self.table = Table::default();
        self.entries = Entries::default();
        self.arena = Arena::default();
        // Without --count, lines before this point are already written.
        let from = if self.count_mode { 0 } else { self.seq };
        self.spill = Some((dir, spill, from));
        Ok(())
    }

    /// Writes whatever is still held back; returns the number of unique keys.
    fn finish(self, sink: &mut Sink) -> Result<u64, CliError> {
        let count_mode = self.count_mode;
        let mut unique = self.unique;
        let mut emit = |count: u64, line: &[u8]| -> Result<(), CliError> {
            unique += 1;
            if count_mode {
                sink.write(format!("{count:>7} ").as_bytes())?;
            }
            sink.record(line)
        };
        if let Some((dir, spill, from)) = self.spill {
            let runs = spill.resolve(self.budget, from).map_err(spill_err)?;
            spill::merge(runs, &mut emit, spill_err)?;
            drop(dir);
        } else if count_mode {
            for e in self.entries.iter() {
                emit(e.count, e.line.map_or(&[][..], |l| self.arena.get(l)))?;
            }
        }
        Ok(unique)
    }
}

fn spill_err(error: io::Error) -> CliError {
    CliError::Output {
        name: "dedup spill file".to_string(),
        error,
    }
}

/// Appends the dedup key of `url` (whose profile form is `line`) to `out`.
fn write_key(
    kind: DedupKey,
    url: &Url,
    line: &[u8],
    out: &mut Vec<u8>,
    names: &mut Names,
    list: &List,
) {
    let whole = |out: &mut Vec<u8>| out.extend_from_slice(url.href().as_bytes());
    match kind {
        DedupKey::Href | DedupKey::NoFragment => {
            out.extend_from_slice(&line[..href_key_len(kind, line)]);
        }
        DedupKey::Origin => {
            let origin = url.origin();
            if origin.is_opaque() {
                whole(out);
            } else {
                out.extend_from_slice(origin.to_string().as_bytes());
            }
        }
        DedupKey::Host => match url.host_kind() {
            None | Some(HostKind::Empty) => whole(out),
            Some(_) => out.extend_from_slice(url.host().as_bytes()),
        },
        // A host without a site (an IP address, a public suffix) is its
        // own site.
        DedupKey::Site => match list.url_parts(url).and_then(|p| p.registrable_domain()) {
            Some(site) => out.extend_from_slice(site.as_bytes()),
            None => write_key(DedupKey::Host, url, line, out, names, list),
        },
        DedupKey::Pattern => {
            if !write_pattern(url, out, names) {
                whole(out);
            }
        }
    }
}

/// Host + path with numeric, hex and UUID segments collapsed + the sorted,
/// distinct parameter names: `example.com/user/{n}/edit?id&tab`. `names`
/// is scratch space.
pub fn write_pattern(url: &Url, out: &mut Vec<u8>, names: &mut Names) -> bool {
    let segments = match (url.host_kind(), url.path_segments()) {
        (Some(HostKind::Empty) | None, _) | (_, None) => return false,
        (Some(_), Some(s)) => s,
    };
    out.extend_from_slice(url.host().as_bytes());
    for seg in segments {
        out.push(b'/');
        out.extend_from_slice(collapse(seg).as_bytes());
    }
    if let Some(q) = url.query() {
        names.clear();
        let mut start = 0;
        for param in q.split('&') {
            let name = param.split_once('=').map_or(param, |(n, _)| n);
            if !param.is_empty() {
                names.push((start, start + name.len()));
            }
            start += param.len() + 1;
        }
        let name = |&(s, e): &(usize, usize)| &q.as_bytes()[s..e];
        names.sort_unstable_by(|a, b| name(a).cmp(name(b)));
        names.dedup_by(|a, b| name(a) == name(b));
        out.push(b'?');
        for (i, n) in names.iter().enumerate() {
            if i > 0 {
                out.push(b'&');
            }
            out.extend_from_slice(name(n));
        }
    }
    true
}

fn collapse(seg: &str) -> &str {
    let b = seg.as_bytes();
    if !b.is_empty() && b.iter().all(u8::is_ascii_digit) {
        "{n}"
    } else if is_uuid(b) {
        "{uuid}"
    } else if b.len() >= 8
        && b.iter().all(u8::is_ascii_hexdigit)
        && b.iter().any(u8::is_ascii_digit)
    {
        "{hex}"
    } else {
        seg
    }
}

fn is_uuid(b: &[u8]) -> bool {
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => *c == b'-',
            _ => c.is_ascii_hexdigit(),
        })
}

/// A chunk's keys when the key is the URL's output form, or its part
/// before the fragment, and no edit is set: each URL is read as a view
/// (the fast path's proof; no `Url` is built), and a line that is already
/// its own output is not copied at all: the writer takes its key and its
/// line from the chunk's input.
struct HrefKeys<'a> {
    profile: &'a Profile,
    stage: &'a Stage,
    kind: DedupKey,
    terminator: u8,
}

impl OnView<Keys> for HrefKeys<'_> {
    #[inline(always)]
    fn view(
        &mut self,
        p: &mut Processed<Keys>,
        rec: &Rec<'_>,
        text: &str,
        url: Result<UrlRef<'_>, urlsift::ParseError>,
    ) -> Result<(), Reason> {
        let url = url.map_err(Reason::Url)?;
        if self.stage.filter(url, &mut p.tally) == Verdict::Drop {
            return Ok(());
        }
        let form = self
            .profile
            .apply_href(url.href())
            .expect("not a SURT profile");
        let at = p.out.len();
        let line = &rec.data[rec.start..rec.end];
        if rec.shape == Shape::Line
            && Rec::is_own_text(&form, text)
            && std::ptr::eq(text.as_bytes(), line)
        {
            let key_end = rec.start + href_key_len(self.kind, line);
            let hash = xxh3_64(&rec.data[rec.start..key_end]);
            let place = Place::Input {
                start: rec.start,
                end: rec.end,
                key_end,
            };
            p.extra.held.push(Held { at, place, hash });
            return Ok(());
        }
        p.flush();
        rec.write_url(&mut p.out, &form, self.terminator);
        let key_start = p.extra.keys.len();
        let key = &form.as_bytes()[..href_key_len(self.kind, form.as_bytes())];
        p.extra.keys.extend_from_slice(key);
        let hash = xxh3_64(key);
        let place = Place::Out {
            end: p.out.len(),
            key: (key_start, p.extra.keys.len()),
        };
        p.extra.held.push(Held { at, place, hash });
        Ok(())
    }
}

/// How much of `line`, a URL in output form, the `href` or `no-fragment`
/// key is.
#[inline]
fn href_key_len(kind: DedupKey, line: &[u8]) -> usize {
    match kind {
        DedupKey::NoFragment => memchr::memchr(b'#', line).unwrap_or(line.len()),
        _ => line.len(),
    }
}

pub fn run(a: DedupArgs) -> Result<ExitCode, CliError> {
    if let Some(dir) = &a.tmp_dir {
        // Spilling starts mid-run, after output has gone out: a --tmp-dir
        // that cannot take a spill directory fails now, before any.
        tempfile::Builder::new()
            .prefix("urlsift-dedup-")
            .tempdir_in(dir)
            .map_err(|e| CliError::Usage(format!("--tmp-dir {}: {e}", dir.display())))?;
    }
    let mut setup = crate::Setup::new(&a.input, &a.output, Some(&a.policy), true)?;
    // In-flight chunks count against the budget too: keep them to about a
    // tenth of it when the budget is small.
    let in_flight = (setup.engine.pool.current_num_threads() * 6) as u64;
    let cap = (a.memory / 10 / in_flight).clamp(64 << 10, 4 << 20) as usize;
    setup.engine.chunk_size = setup.engine.chunk_size.min(cap);
    let budget = a.memory.saturating_sub(a.memory / 10).max(1);
    let profile = profile(&a.profile)?;
    let base = parse_base(&a.input.base)?;
    let stage = Stage::new(&a.input.sites, Some(&a.filters), Some(&a.edits))?;
    // Heads (a CSV header) are written by this thread, before any record:
    // the workers' output holds records only.
    let mut job = setup.job(false);
    job.write_heads = false;
    let writes_records = setup.writes_records;
    let term = setup.terminator;
    let key_kind = a.key;
    let mut std = setup.standard;
    let mut seen = Seen {
        table: Table::default(),
        entries: Entries::default(),
        arena: Arena::default(),
        budget,
        count_mode: a.count,
        seq: 0,
        unique: 0,
        spill: None,
        tmp_dir: a.tmp_dir.clone(),
    };
    // Key buffers go back and forth between workers and this thread: reusing
    // them keeps the allocator from holding on to freed cross-thread blocks.
    let spare_keys: Mutex<Vec<Keys>> = Mutex::new(Vec::new());
    // Keys read from the URL's output form alone take the view path.
    let href_keys = matches!(key_kind, DedupKey::Href | DedupKey::NoFragment)
        && !profile.is_surt()
        && !stage.has_edits();
    let work = |chunk: &Chunk| -> Processed<Keys> {
        let keys = spare_keys
            .lock()
            .ok()
            .and_then(|mut k| k.pop())
            .unwrap_or_default();
        if href_keys {
            let href_keys = HrefKeys {
                profile: &profile,
                stage: &stage,
                kind: key_kind,
                terminator: term,
            };
            return job.run_viewed(chunk, base.as_ref(), keys, href_keys);
        }
        // One batch parser per chunk: no allocation per URL.
        let mut form = Vec::new();
        job.run_parsed::<Keys>(chunk, base.as_ref(), keys, |p, rec, _, parser| {
            let url = parser.last_mut().expect("parsed");
            if stage.apply(url, &mut p.tally) == Verdict::Drop {
                return Ok(());
            }
            let url = &*url;
            p.flush();
            let start = p.out.len();
            let key_start = p.extra.keys.len();
            if matches!(rec.shape, Shape::Line | Shape::ReadOnly) {
                profile.apply(url, &mut p.out);
                let (out, keys) = (&p.out[start..], &mut p.extra.keys);
                write_key(key_kind, url, out, keys, &mut p.extra.names, &stage.list);
                p.out.push(term);
            } else {
                // A record goes out with its URL field in profile form.
                form.clear();
                profile.apply(url, &mut form);
                write_key(
                    key_kind,
                    url,
                    &form,
                    &mut p.extra.keys,
                    &mut p.extra.names,
                    &stage.list,
                );
                let form = std::str::from_utf8(&form).expect("profile output is UTF-8");
                rec.write_url(&mut p.out, form, term);
            }
            let hash = xxh3_64(&p.extra.keys[key_start..]);
            let place = Place::Out {
                end: p.out.len(),
                key: (key_start, p.extra.keys.len()),
            };
            p.extra.held.push(Held {
                at: start,
                place,
                hash,
            });
            Ok(())
        })
    };
    let mut raw_key = Vec::new();
    let errors = setup.engine.run(work, |chunk, p| {
        if chunk.oversize.is_some() {
            // Not keyed (it cannot be held): counted and rejected, never
            // passed through.
            std.oversize(chunk, false)?;
            return Ok(true);
        }
        if writes_records && chunk.write_head && chunk.head > 0 {
            std.sink.write(&chunk.data[..chunk.head])?;
        }
        std.lines.fix(chunk, p);
        std.tally.merge(&p.tally);
        if let Some(r) = &mut std.rejects {
            for rej in &p.rejects {
                write_reject(r, &chunk.source.name, rej)?;
            }
        }
        // Walk the chunk's records in order: parsed lines and kept bad
        // lines (a kept line comes before the records at or after its end).
        let (data, out, keys) = (&chunk.data[..], &p.out, &p.extra.keys);
        let mut kept = p.kept.iter().peekable();
        let mut offer_kept = |seen: &mut Seen, (start, end): (usize, usize), sink: &mut Sink| {
            raw_key.clear();
            raw_key.push(RAW_KEY);
            raw_key.extend_from_slice(&out[start..end - 1]);
            seen.offer(xxh3_64(&raw_key), &raw_key, &out[start..end - 1], sink)
        };
        // Lookups are independent cache misses: start each a few records
        // ahead, so they overlap instead of following one another.
        let mut ahead = p.extra.held.iter().map(|h| h.hash);
        let mut near = p.extra.held.iter().map(|h| h.hash);
        for hash in ahead.by_ref().take(PREFETCH_AHEAD) {
            seen.prefetch(hash);
        }
        for hash in near.by_ref().take(PREFETCH_AHEAD / 2) {
            seen.prefetch_key(hash);
        }
        for h in &p.extra.held {
            while let Some(&span) = kept.next_if(|&&(_, end)| end <= h.at) {
                offer_kept(&mut seen, span, &mut std.sink)?;
            }
            if let Some(next) = ahead.next() {
                seen.prefetch(next);
            }
            if let Some(next) = near.next() {
                seen.prefetch_key(next);
            }
            let (key, line) = match h.place {
                Place::Out { end, key } => (&keys[key.0..key.1], &out[h.at..end - 1]),
                Place::Input {
                    start,
                    end,
                    key_end,
                } => (&data[start..key_end], &data[start..end]),
            };
            seen.offer(h.hash, key, line, &mut std.sink)?;
        }
        for &span in kept {
            offer_kept(&mut seen, span, &mut std.sink)?;
        }
        if let Some(stop) = &p.stopped {
            if let Some(r) = &mut std.rejects {
                write_reject(r, &chunk.source.name, stop)?;
            }
            return Err(strict_stop(&chunk.source.name, stop, std.rejects.take()));
        }
        let mut keys = std::mem::take(&mut p.extra);
        keys.keys.clear();
        keys.held.clear();
        if let Ok(mut spare) = spare_keys.lock() {
            spare.push(keys);
        }
        Ok(true)
    })?;
    let records = seen.seq;
    let unique = seen.finish(&mut std.sink)?;
    let files = std.files;
    let tally = std.finish()?;
    let extra = format!(
        "; dedup: {records} records, {unique} unique, {} duplicates",
        records.saturating_sub(unique)
    );
    Ok(crate::report(&tally, files, &setup.report, &extra, &errors))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pattern(s: &str) -> String {
        let mut out = Vec::new();
        assert!(write_pattern(
            &Url::parse(s).unwrap(),
            &mut out,
            &mut Vec::new()
        ));
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn patterns_collapse_ids() {
        assert_eq!(
            pattern("https://e.com/user/123/post/5f2b9c1d/?b=1&a=2&b=3"),
            "e.com/user/{n}/post/{hex}/?a&b"
        );
        assert_eq!(
            pattern("https://e.com:8080/i/123e4567-e89b-12d3-a456-426614174000"),
            "e.com:8080/i/{uuid}"
        );
        assert_eq!(pattern("https://e.com/deadbeef"), "e.com/deadbeef");
        // Empty parameters are skipped, an empty name is a name, names
        // sort bytewise and repeat once.
        assert_eq!(pattern("https://e.com/?=x&&b&a=1&b=2&B"), "e.com/?&B&a&b");
        assert_eq!(pattern("https://e.com/p?"), "e.com/p?");
    }
}
