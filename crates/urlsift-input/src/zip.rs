//! ZIP files read from their central directory: the entries a ZIP holds
//! (name, method, where its bytes lie), and an entry's bytes as a stream,
//! inflated when deflated, its size and CRC-32 checked at its end. Stored
//! and deflated entries, ZIP64 sizes and offsets; an encrypted entry, or
//! one in another method, is refused by name when it is opened.
//!
//! A ZIP is read from its end (the central directory lists the entries),
//! so it must be a file, or an object (feature `remote`: its directory
//! and each entry read by ranges): it cannot be read from standard input
//! or a pipe.
//!
//! ```
//! use std::io::Read;
//! use urlsift_input::zip;
//!
//! # let tmp = tempfile::Builder::new().prefix("urlsift-doc-zip-").tempdir()?;
//! # let dir = tmp.path();
//! let path = dir.join("a.zip");
//! std::fs::write(&path, zip::stored(&[("a.txt", b"https://e.com/\n")]))?;
//! let entries = zip::entries(&path)?;
//! assert_eq!(entries[0].name, "a.txt");
//! let mut text = String::new();
//! zip::open(&path, &entries[0])?.read_to_string(&mut text)?;
//! assert_eq!(text, "https://e.com/\n");
//! # Ok::<(), std::io::Error>(())
//! ```

use std::fs::File;
use std::io::{self, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

/// A local file header's signature: the first bytes of a ZIP file.
pub const MAGIC: [u8; 4] = *b"PK\x03\x04";
/// The end of central directory record's signature.
const END: u32 = 0x0605_4b50;
const END64_LOCATOR: u32 = 0x0706_4b50;
const END64: u32 = 0x0606_4b50;
const CENTRAL: u32 = 0x0201_4b50;
const LOCAL: u32 = 0x0403_4b50;
/// The end record (22 bytes) plus the longest comment.
const TAIL: u64 = 22 + 0xffff;

/// One entry of a ZIP file, as its central directory lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Its name (a path inside the ZIP, `/`-separated).
    pub name: String,
    /// How its bytes are stored: 0 stored, 8 deflated (others are refused
    /// when it is opened).
    pub method: u16,
    /// Bit 0: encrypted (refused when it is opened).
    pub flags: u16,
    /// Where its local header starts in the file.
    pub header: u64,
    /// Its bytes as stored (compressed).
    pub stored_size: u64,
    /// Its bytes once inflated.
    pub size: u64,
    /// The CRC-32 of its inflated bytes.
    pub crc32: u32,
}

fn invalid(message: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, message)
}

fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("four bytes"))
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("eight bytes"))
}

/// Whether `head` (a file's first bytes) starts like a ZIP file.
///
/// ```
/// assert!(urlsift_input::zip::starts(b"PK\x03\x04\x14\x00"));
/// assert!(!urlsift_input::zip::starts(b"WARC/1.1\r\n"));
/// ```
pub fn starts(head: &[u8]) -> bool {
    head.starts_with(&MAGIC)
}

/// A ZIP's bytes: a file's, or an object's, read by ranges.
enum Archive {
    File(File, u64),
    #[cfg(feature = "remote")]
    Object(String, u64),
}

impl Archive {
    /// The ZIP at `path`: a file, or an object's URL.
    fn open(path: &Path) -> io::Result<Archive> {
        #[cfg(feature = "remote")]
        if let Some(url) = crate::remote_name(path) {
            let size = crate::remote::sizes(&[url]).pop().expect("one size")?;
            return Ok(Archive::Object(url.to_string(), size));
        }
        let file = File::open(path)?;
        let len = file.metadata()?.len();
        Ok(Archive::File(file, len))
    }

    fn len(&self) -> u64 {
        match self {
            Archive::File(_, len) => *len,
            #[cfg(feature = "remote")]
            Archive::Object(_, len) => *len,
        }
    }

    /// Fills `buf` with the bytes from `at` (an error if the ZIP ends
    /// first).
    fn read_at(&mut self, at: u64, buf: &mut [u8]) -> io::Result<()> {
        match self {
            Archive::File(file, _) => {
                file.seek(SeekFrom::Start(at))?;
                file.read_exact(buf)
            }
            #[cfg(feature = "remote")]
            Archive::Object(url, _) => {
                let range = at..at + buf.len() as u64;
                let got = crate::remote::read_ranges(&[(url.as_str(), range)])
                    .pop()
                    .expect("one range")?;
                buf.copy_from_slice(&got);
                Ok(())
            }
        }
    }

    /// The bytes `range`, as a stream.
    fn stream(self, range: std::ops::Range<u64>) -> io::Result<Box<dyn Read + Send>> {
        match self {
            Archive::File(mut file, _) => {
                file.seek(SeekFrom::Start(range.start))?;
                Ok(Box::new(file.take(range.end - range.start)))
            }
            #[cfg(feature = "remote")]
            Archive::Object(url, _) => crate::remote::Remote::new(&url)?.open_range(range),
        }
    }
}

/// The entries of the ZIP file at `path` (or the object its URL names),
/// in the order of its central
/// directory. An error says what is wrong: no end of central directory
/// record (not a ZIP, or cut short), a directory outside the file, a
/// damaged directory entry.
pub fn entries(path: &Path) -> io::Result<Vec<Entry>> {
    let mut file = Archive::open(path)?;
    let len = file.len();
    let tail_len = len.min(TAIL);
    let mut tail = vec![0; tail_len as usize];
    file.read_at(len - tail_len, &mut tail)?;
    let end_at = (0..tail.len().saturating_sub(21))
        .rev()
        .find(|&i| u32_at(&tail, i) == END && i + 22 + u16_at(&tail, i + 20) as usize <= tail.len())
        .ok_or_else(|| {
            invalid("no ZIP end of central directory record: not a ZIP file, or cut short".into())
        })?;
    let end = &tail[end_at..];
    let mut count = u64::from(u16_at(end, 10));
    let mut dir_size = u64::from(u32_at(end, 12));
    let mut dir_at = u64::from(u32_at(end, 16));
    if count == 0xffff || dir_size == 0xffff_ffff || dir_at == 0xffff_ffff {
        // ZIP64: a locator just before the end record points at the
        // ZIP64 end record, which holds the 64-bit values.
        let locator = end_at
            .checked_sub(20)
            .filter(|&at| u32_at(&tail, at) == END64_LOCATOR)
            .ok_or_else(|| invalid("a ZIP64 file without its end of directory locator".into()))?;
        let end64_at = u64_at(&tail, locator + 8);
        let mut end64 = [0u8; 56];
        file.read_at(end64_at, &mut end64).map_err(|_| {
            invalid(format!(
                "the ZIP64 end record at byte {end64_at} is cut short"
            ))
        })?;
        if u32_at(&end64, 0) != END64 {
            return Err(invalid(format!("no ZIP64 end record at byte {end64_at}")));
        }
        count = u64_at(&end64, 32);
        dir_size = u64_at(&end64, 40);
        dir_at = u64_at(&end64, 48);
    }
    if dir_at.checked_add(dir_size).is_none_or(|e| e > len) {
        return Err(invalid(format!(
            "the central directory (byte {dir_at}, {dir_size} bytes) lies past the end of the \
             file ({len} bytes): cut short?"
        )));
    }
    let mut dir =
        vec![0; usize::try_from(dir_size).map_err(|_| invalid("directory too large".into()))?];
    file.read_at(dir_at, &mut dir)?;
    let mut entries = Vec::new();
    let mut at = 0usize;
    while entries.len() as u64 != count {
        let damaged = |what: &str| {
            invalid(format!(
                "directory entry {} (byte {}): {what}",
                entries.len() + 1,
                dir_at + at as u64
            ))
        };
        if at + 46 > dir.len() || u32_at(&dir, at) != CENTRAL {
            return Err(damaged("not a central directory header"));
        }
        let h = &dir[at..];
        let (name_len, extra_len, comment_len) = (
            u16_at(h, 28) as usize,
            u16_at(h, 30) as usize,
            u16_at(h, 32) as usize,
        );
        let next = at + 46 + name_len + extra_len + comment_len;
        if next > dir.len() {
            return Err(damaged("runs past the directory's end"));
        }
        let name = String::from_utf8_lossy(&h[46..46 + name_len]).into_owned();
        let mut entry = Entry {
            name,
            method: u16_at(h, 10),
            flags: u16_at(h, 8),
            crc32: u32_at(h, 16),
            stored_size: u64::from(u32_at(h, 20)),
            size: u64::from(u32_at(h, 24)),
            header: u64::from(u32_at(h, 42)),
        };
        zip64_extra(&h[46 + name_len..46 + name_len + extra_len], &mut entry);
        entries.push(entry);
        at = next;
    }
    Ok(entries)
}

/// Reads an entry's ZIP64 extended information (header id 1): each value
/// whose 32-bit field is all ones, in the order size, stored size, header
/// offset.
fn zip64_extra(mut extra: &[u8], entry: &mut Entry) {
    while extra.len() >= 4 {
        let (id, len) = (u16_at(extra, 0), u16_at(extra, 2) as usize);
        let Some(body) = extra.get(4..4 + len) else {
            return;
        };
        if id == 1 {
            let mut values = body.chunks_exact(8).map(|v| u64_at(v, 0));
            for field in [&mut entry.size, &mut entry.stored_size, &mut entry.header] {
                if *field == 0xffff_ffff {
                    match values.next() {
                        Some(v) => *field = v,
                        None => return,
                    }
                }
            }
            return;
        }
        extra = &extra[4 + len..];
    }
}

/// Where `entry`'s stored bytes lie in the ZIP at `path` (a file, or the
/// object its URL names): from past its local header, which must be
/// there, for its stored size.
///
/// ```
/// use urlsift_input::zip;
///
/// # let tmp = tempfile::Builder::new().prefix("urlsift-doc-zip-").tempdir()?;
/// let path = tmp.path().join("a.zip");
/// std::fs::write(&path, zip::stored(&[("a.txt", b"https://e.com/\n")]))?;
/// let entry = &zip::entries(&path)?[0];
/// let range = zip::entry_range(&path, entry)?;
/// assert_eq!(&std::fs::read(&path)?[range.start as usize..range.end as usize], b"https://e.com/\n");
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn entry_range(path: &Path, entry: &Entry) -> io::Result<std::ops::Range<u64>> {
    let start = local_data_start(&mut Archive::open(path)?, entry)?;
    Ok(start..start + entry.stored_size)
}

/// Where `entry`'s stored bytes start in a ZIP file or object: past its
/// local header, which must be there and name it.
fn local_data_start(file: &mut Archive, entry: &Entry) -> io::Result<u64> {
    let mut local = [0u8; 30];
    file.read_at(entry.header, &mut local).map_err(|_| {
        invalid(format!(
            "its local header (byte {}) is cut short",
            entry.header
        ))
    })?;
    if u32_at(&local, 0) != LOCAL {
        return Err(invalid(format!(
            "no local header at byte {}, where the directory places it",
            entry.header
        )));
    }
    let (name_len, extra_len) = (u16_at(&local, 26) as u64, u16_at(&local, 28) as u64);
    Ok(entry.header + 30 + name_len + extra_len)
}

/// `entry`'s bytes as a stream, inflated when deflated; at its end, a read
/// error if their size or CRC-32 is not what the directory says (the
/// CRC-32 of a stored gzip or zstd file is not computed: its members or
/// frames check themselves). Refused
/// at once: an encrypted entry, one in a method other than stored or
/// deflated, one whose local header is missing or whose bytes lie past the
/// end of the file.
pub fn open(path: &Path, entry: &Entry) -> io::Result<Box<dyn Read + Send>> {
    if entry.flags & 1 != 0 {
        return Err(invalid("it is encrypted".into()));
    }
    let mut file = Archive::open(path)?;
    let start = local_data_start(&mut file, entry)?;
    let len = file.len();
    if start
        .checked_add(entry.stored_size)
        .is_none_or(|end| end > len)
    {
        return Err(invalid(format!(
            "its {} bytes at byte {start} run past the end of the file ({len} bytes): cut short?",
            entry.stored_size
        )));
    }
    // A stored gzip or zstd file checks itself, member by member (frame
    // by frame), where the damage is: its CRC-32 as a whole would only
    // repeat that, a pass over every byte later.
    let mut head = [0u8; 4];
    let got = 4.min(entry.stored_size) as usize;
    file.read_at(start, &mut head[..got])?;
    let self_checked = entry.method == 0
        && matches!(
            head[..got],
            [0x1f, 0x8b, ..] | [0x28, 0xb5, 0x2f, 0xfd] | [0x5d, 0x2a, 0x4d, 0x18]
        );
    let stored = file.stream(start..start + entry.stored_size)?;
    let inner: Box<dyn Read + Send> = match entry.method {
        0 => Box::new(stored),
        8 => Box::new(flate2::bufread::DeflateDecoder::new(
            BufReader::with_capacity(1 << 16, stored),
        )),
        m => {
            return Err(invalid(format!(
                "it is compressed with ZIP method {m}; urlsift reads stored (0) and deflated (8) \
                 entries"
            )));
        }
    };
    Ok(Box::new(Checked {
        inner,
        crc: (!self_checked).then(flate2::Crc::new),
        size: 0,
        want_size: entry.size,
        want_crc: entry.crc32,
        done: false,
    }))
}

/// An entry's bytes, checked against the directory at their end.
struct Checked {
    inner: Box<dyn Read + Send>,
    /// `None`: not checked (a stored gzip or zstd file).
    crc: Option<flate2::Crc>,
    size: u64,
    want_size: u64,
    want_crc: u32,
    done: bool,
}

impl Read for Checked {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.done {
            return Ok(0);
        }
        let n = self.inner.read(buf).map_err(|e| {
            invalid(format!(
                "its bytes cannot be inflated after byte {}: {e}",
                self.size
            ))
        })?;
        if n > 0 {
            if let Some(crc) = &mut self.crc {
                crc.update(&buf[..n]);
            }
            self.size += n as u64;
            return Ok(n);
        }
        self.done = true;
        if self.size != self.want_size {
            return Err(invalid(format!(
                "it holds {} bytes where the directory says {}",
                self.size, self.want_size
            )));
        }
        if let Some(crc) = &self.crc
            && crc.sum() != self.want_crc
        {
            return Err(invalid(format!(
                "its CRC-32 is {:08x} where the directory says {:08x}: the entry is damaged",
                crc.sum(),
                self.want_crc
            )));
        }
        Ok(0)
    }
}

/// A ZIP file of `files`, each stored (not compressed): for tests and
/// examples.
pub fn stored(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut dir = Vec::new();
    for (name, bytes) in files {
        let mut crc = flate2::Crc::new();
        crc.update(bytes);
        let offset = out.len() as u32;
        let mut fixed = Vec::new();
        fixed.extend_from_slice(&[20, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        fixed.extend_from_slice(&crc.sum().to_le_bytes());
        fixed.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
        fixed.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
        fixed.extend_from_slice(&(name.len() as u16).to_le_bytes());
        fixed.extend_from_slice(&0u16.to_le_bytes());
        out.extend_from_slice(&LOCAL.to_le_bytes());
        out.extend_from_slice(&fixed);
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(bytes);
        dir.extend_from_slice(&CENTRAL.to_le_bytes());
        dir.extend_from_slice(&[20, 0]);
        dir.extend_from_slice(&fixed);
        dir.extend_from_slice(&[0; 10]);
        dir.extend_from_slice(&offset.to_le_bytes());
        dir.extend_from_slice(name.as_bytes());
    }
    let dir_at = out.len() as u32;
    out.extend_from_slice(&dir);
    out.extend_from_slice(&END.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&(files.len() as u16).to_le_bytes());
    out.extend_from_slice(&(files.len() as u16).to_le_bytes());
    out.extend_from_slice(&(dir.len() as u32).to_le_bytes());
    out.extend_from_slice(&dir_at.to_le_bytes());
    out.extend_from_slice(&[0, 0]);
    out
}
