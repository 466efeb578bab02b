//! Dedup beyond the memory budget: hash-partitioned spill files, resolved
//! one partition at a time, then merged back into first-occurrence order.
//!
//! Every record carries its input sequence number. Records with equal keys
//! always land in the same partition (the partition is a function of the
//! key's xxh3-64 hash), and within a partition keys are compared as exact
//! bytes, so a hash collision can never make two different keys duplicates.
//! Each partition is reduced to its unique keys (the first records, as many
//! as the samples asked for, each with the key's summed count) and written
//! sorted by sequence number; a k-way merge of
//! those runs restores input order. A partition still too large for the
//! budget is split again on the next bits of the hash.

use std::collections::{BinaryHeap, HashMap};
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use xxhash_rust::xxh3::{Xxh3Builder, xxh3_64};

/// Makes a spill directory named after `prefix` in `tmp_dir` (default:
/// the system's temp directory), removed when dropped.
pub(crate) fn spill_dir(
    tmp_dir: Option<&Path>,
    prefix: &str,
) -> Result<tempfile::TempDir, crate::error::Error> {
    let base = tmp_dir.map_or_else(std::env::temp_dir, Path::to_path_buf);
    tempfile::Builder::new()
        .prefix(prefix)
        .tempdir_in(&base)
        .map_err(|error| crate::error::Error::Spill {
            what: format!("spill directory in {}", base.display()),
            error,
        })
}

/// Partitions per level: each level uses the next 6 bits of the hash.
const FANOUT: usize = 64;
const MAX_DEPTH: u32 = 4;
/// Partitions smaller than this are never split again, however small the
/// budget: splitting creates `FANOUT` files and cannot pay off below it.
const MIN_SPLIT: u64 = 64 << 10;
/// Estimated bytes per distinct key while reducing, beyond its bytes
/// (map slot, two vectors, the record).
const REDUCE_OVERHEAD: usize = 96;

/// One dedup record as stored on disk.
pub struct SpillRecord {
    pub seq: u64,
    pub count: u64,
    pub key: Vec<u8>,
    pub line: Vec<u8>,
}

/// Marks a record whose line equals its key (the default `href` key), so
/// the bytes are stored once.
const LINE_IS_KEY: u64 = u64::MAX;

fn write_record(
    w: &mut impl Write,
    seq: u64,
    count: u64,
    key: &[u8],
    line: &[u8],
) -> io::Result<()> {
    let same = !key.is_empty() && key == line;
    let line_len = if same { LINE_IS_KEY } else { line.len() as u64 };
    w.write_all(&seq.to_le_bytes())?;
    w.write_all(&count.to_le_bytes())?;
    w.write_all(&(key.len() as u64).to_le_bytes())?;
    w.write_all(&line_len.to_le_bytes())?;
    w.write_all(key)?;
    if !same {
        w.write_all(line)?;
    }
    Ok(())
}

/// Reads the next record into `rec`, reusing its buffers; false at the end.
fn read_record_into(r: &mut impl Read, rec: &mut SpillRecord) -> io::Result<bool> {
    let mut head = [0u8; 32];
    match r.read_exact(&mut head[..8]) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(false),
        Err(e) => return Err(e),
    }
    r.read_exact(&mut head[8..])?;
    let word = |i: usize| u64::from_le_bytes(head[i * 8..i * 8 + 8].try_into().expect("8 bytes"));
    rec.seq = word(0);
    rec.count = word(1);
    rec.key.clear();
    rec.key.resize(word(2) as usize, 0);
    r.read_exact(&mut rec.key)?;
    rec.line.clear();
    if word(3) == LINE_IS_KEY {
        rec.line.extend_from_slice(&rec.key);
    } else {
        rec.line.resize(word(3) as usize, 0);
        r.read_exact(&mut rec.line)?;
    }
    Ok(true)
}

fn read_record(r: &mut impl Read) -> io::Result<Option<SpillRecord>> {
    let mut rec = SpillRecord {
        seq: 0,
        count: 0,
        key: Vec::new(),
        line: Vec::new(),
    };
    Ok(read_record_into(r, &mut rec)?.then_some(rec))
}

/// The partition of a key with xxh3-64 `hash` at `depth`: each level uses
/// the next 6 bits, so equal keys always meet in the same partition.
fn partition_of(hash: u64, depth: u32) -> usize {
    ((hash >> (6 * depth)) as usize) % FANOUT
}

/// The spill files of one partitioning level.
///
/// ```
/// use urlsift_records::dedup::{Spill, merge};
/// use xxhash_rust::xxh3::xxh3_64;
///
/// # let tmp = tempfile::Builder::new().prefix("urlsift-doc-spill-").tempdir()?;
/// # let dir = tmp.path();
/// let mut spill = Spill::create(&dir, "p", 0)?;
/// for (seq, line) in ["b", "a", "b", "c", "a"].iter().enumerate() {
///     spill.push(xxh3_64(line.as_bytes()), seq as u64, 1, line.as_bytes(), line.as_bytes())?;
/// }
/// // Each partition reduced to its first occurrences (a budget of 1 MiB),
/// // then merged back into input order, with counts.
/// let runs = spill.resolve(1 << 20, 0, 1)?;
/// let mut firsts = Vec::new();
/// merge(runs, |count, line| Ok::<_, std::io::Error>(firsts.push((count, line.to_vec()))), |e| e)?;
/// assert_eq!(firsts, [(2, b"b".to_vec()), (2, b"a".to_vec()), (1, b"c".to_vec())]);
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct Spill {
    dir: PathBuf,
    parts: Vec<BufWriter<File>>,
    paths: Vec<PathBuf>,
    sizes: Vec<u64>,
    depth: u32,
}

impl Spill {
    /// Creates `FANOUT` partition files in `dir` named after `prefix`.
    pub fn create(dir: &Path, prefix: &str, depth: u32) -> io::Result<Spill> {
        let mut parts = Vec::with_capacity(FANOUT);
        let mut paths = Vec::with_capacity(FANOUT);
        for i in 0..FANOUT {
            let path = dir.join(format!("{prefix}-{i:02}"));
            parts.push(BufWriter::with_capacity(1 << 16, File::create(&path)?));
            paths.push(path);
        }
        Ok(Spill {
            dir: dir.to_path_buf(),
            parts,
            paths,
            sizes: vec![0; FANOUT],
            depth,
        })
    }

    /// Appends a record to its key's partition; `hash` is the key's xxh3-64.
    pub fn push(
        &mut self,
        hash: u64,
        seq: u64,
        count: u64,
        key: &[u8],
        line: &[u8],
    ) -> io::Result<()> {
        let p = partition_of(hash, self.depth);
        self.sizes[p] += 32 + key.len() as u64 + if key == line { 0 } else { line.len() as u64 };
        write_record(&mut self.parts[p], seq, count, key, line)
    }

    /// Reduces every partition to the first `samples` records of each key
    /// (each with the key's summed count), keeping those at or after
    /// `from_seq`, and returns the sorted run files.
    pub fn resolve(self, budget: u64, from_seq: u64, samples: u32) -> io::Result<Vec<PathBuf>> {
        let mut runs = Vec::new();
        for w in self.parts {
            w.into_inner().map_err(|e| e.into_error())?.sync_data().ok();
        }
        for (i, path) in self.paths.iter().enumerate() {
            let size = self.sizes[i];
            if size == 0 {
                std::fs::remove_file(path)?;
                continue;
            }
            // Reduce in memory if the partition's distinct keys fit the
            // budget (duplicates cost nothing); otherwise split it on the next
            // hash bits. Small partitions and the last level always reduce.
            let may_split = size > MIN_SPLIT && self.depth + 1 < MAX_DEPTH;
            let limit = may_split.then_some(budget);
            if let Some(run) = reduce(path, from_seq, limit, samples)? {
                runs.push(run);
                continue;
            }
            let prefix = format!("{}-{i:02}", path_name(path));
            let mut sub = Spill::create(&self.dir, &prefix, self.depth + 1)?;
            let mut r = BufReader::with_capacity(1 << 16, File::open(path)?);
            while let Some(rec) = read_record(&mut r)? {
                sub.push(xxh3_64(&rec.key), rec.seq, rec.count, &rec.key, &rec.line)?;
            }
            drop(r);
            std::fs::remove_file(path)?;
            runs.extend(sub.resolve(budget, from_seq, samples)?);
        }
        Ok(runs)
    }
}

fn path_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// A key's records while a partition is reduced: its first ones (up to
/// the samples) and the sum of all its counts.
struct Group {
    firsts: Vec<(u64, Vec<u8>)>,
    count: u64,
}

/// Loads one partition, keeps each key's first `samples` records with the
/// key's summed count, and writes the survivors sorted by sequence number.
/// Gives up (`None`) when what it holds would take more than `limit` bytes.
fn reduce(
    path: &Path,
    from_seq: u64,
    limit: Option<u64>,
    samples: u32,
) -> io::Result<Option<PathBuf>> {
    let mut seen: HashMap<Vec<u8>, Group, Xxh3Builder> = HashMap::with_hasher(Xxh3Builder::new());
    let mut r = BufReader::with_capacity(1 << 16, File::open(path)?);
    let mut rec = SpillRecord {
        seq: 0,
        count: 0,
        key: Vec::new(),
        line: Vec::new(),
    };
    let mut held = 0u64;
    while read_record_into(&mut r, &mut rec)? {
        // Records were appended in input order, so the first ones per key
        // have the smallest sequence numbers.
        let group = match seen.get_mut(rec.key.as_slice()) {
            Some(group) => group,
            None => {
                held += (rec.key.len() + REDUCE_OVERHEAD) as u64;
                let group = Group {
                    firsts: Vec::with_capacity(1),
                    count: 0,
                };
                seen.entry(rec.key.clone()).or_insert(group)
            }
        };
        group.count += rec.count;
        if group.firsts.len() < samples as usize {
            held += (rec.line.len() + 16) as u64;
            group.firsts.push((rec.seq, rec.line.clone()));
        }
        if limit.is_some_and(|limit| held > limit) {
            return Ok(None);
        }
    }
    drop(r);
    let mut kept: Vec<(u64, u64, Vec<u8>)> = seen
        .into_values()
        .flat_map(|g| {
            g.firsts
                .into_iter()
                .map(move |(seq, line)| (seq, g.count, line))
        })
        .filter(|&(seq, ..)| seq >= from_seq)
        .collect();
    kept.sort_unstable_by_key(|&(seq, ..)| seq);
    let run = path.with_extension("run");
    let mut w = BufWriter::with_capacity(1 << 16, File::create(&run)?);
    for (seq, count, line) in &kept {
        write_record(&mut w, *seq, *count, &[], line)?;
    }
    w.flush()?;
    std::fs::remove_file(path)?;
    Ok(Some(run))
}

struct Head {
    rec: SpillRecord,
    run: usize,
}

impl PartialEq for Head {
    fn eq(&self, other: &Self) -> bool {
        self.rec.seq == other.rec.seq
    }
}
impl Eq for Head {}
impl PartialOrd for Head {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Head {
    // Reversed: BinaryHeap is a max-heap and we want the smallest seq first.
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other.rec.seq.cmp(&self.rec.seq)
    }
}

/// Most runs merged at once; more are first merged in groups, to stay
/// well under the open-file limit.
const MERGE_WIDTH: usize = 200;

/// Merges sorted runs by sequence number, calling `emit(count, line)`;
/// `io_err` makes the caller's error of a spill file's.
pub fn merge<E>(
    runs: Vec<PathBuf>,
    mut emit: impl FnMut(u64, &[u8]) -> Result<(), E>,
    io_err: impl Fn(io::Error) -> E,
) -> Result<(), E> {
    let mut runs = runs;
    while runs.len() > MERGE_WIDTH {
        let mut next = Vec::new();
        for (g, group) in runs.chunks(MERGE_WIDTH).enumerate() {
            let out = group[0].with_extension(format!("m{g}"));
            let mut w = BufWriter::with_capacity(1 << 16, File::create(&out).map_err(&io_err)?);
            merge_group(
                group,
                |rec| write_record(&mut w, rec.seq, rec.count, &[], &rec.line).map_err(&io_err),
                &io_err,
            )?;
            w.flush().map_err(&io_err)?;
            for path in group {
                std::fs::remove_file(path).map_err(&io_err)?;
            }
            next.push(out);
        }
        runs = next;
    }
    merge_group(&runs, |rec| emit(rec.count, &rec.line), &io_err)
}

fn merge_group<E>(
    runs: &[PathBuf],
    mut emit: impl FnMut(&SpillRecord) -> Result<(), E>,
    io_err: &impl Fn(io::Error) -> E,
) -> Result<(), E> {
    let mut readers = Vec::with_capacity(runs.len());
    let mut heap = BinaryHeap::with_capacity(runs.len());
    for (i, path) in runs.iter().enumerate() {
        let mut r = BufReader::with_capacity(1 << 15, File::open(path).map_err(io_err)?);
        if let Some(rec) = read_record(&mut r).map_err(io_err)? {
            heap.push(Head { rec, run: i });
        }
        readers.push(r);
    }
    while let Some(Head { rec, run }) = heap.pop() {
        emit(&rec)?;
        if let Some(next) = read_record(&mut readers[run]).map_err(io_err)? {
            heap.push(Head { rec: next, run });
        }
    }
    Ok(())
}
