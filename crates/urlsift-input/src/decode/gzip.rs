//! Gzip (RFC 1952): members one after another, each a header, raw
//! DEFLATE data and a trailer (CRC-32 and length), parsed here so every
//! fault has an exact place: the header and trailer fields byte by byte,
//! the DEFLATE data by the inflater's own count of bytes taken. The
//! inflater (flate2's raw `Decompress`) reports what it wrote even when it
//! fails, so nothing decoded before a fault is lost.
//!
//! A member's decoded bytes are held until its trailer checks (up to
//! `hold::LIMIT`, see `hold.rs`): a member whose CRC-32 or length does not
//! match, or whose DEFLATE data breaks, hands its bytes out with the fault
//! as damaged, not as data.
//!
//! A damaged member (or bytes between members that are not one) is not
//! the end: the decoder searches on for the next plausible member header
//! and resumes there, after handing out the fault (see the module notes
//! in `mod.rs`). A cut file still ends at the cut.

use std::io;

use flate2::{Crc, Decompress, FlushDecompress, Status};

use super::compression::{Compression, GZIP_MAGIC};
use super::fault::{Decode, DecodeError, Fault, Progress, check_end, resume};
use super::hold::Hold;
use super::parallel::{Dictionary, Units, next_header};
use super::source::Source;
use super::unit::{UnitCodec, unit_fields};

/// Header flags (RFC 1952 section 2.3.1).
const FHCRC: u8 = 1 << 1;
const FEXTRA: u8 = 1 << 2;
const FNAME: u8 = 1 << 3;
const FCOMMENT: u8 = 1 << 4;
const RESERVED: u8 = 0xe0;
/// The only compression method: DEFLATE.
const CM_DEFLATE: u8 = 8;

enum Stage {
    /// Before a member's header (the first, or one after a trailer).
    Header,
    /// Inside a member's DEFLATE data.
    Body,
    /// After the DEFLATE data: the 8-byte trailer.
    Trailer,
    /// After a member's trailer: another member, padding or garbage.
    Between,
}

pub(super) struct Gzip {
    source: Source,
    inflate: Decompress,
    /// CRC-32 of the current member's decoded bytes.
    crc: Crc,
    stage: Stage,
    progress: Progress,
    /// The current member's 1-based number and first byte.
    member: u64,
    member_start: u64,
    /// The current member's bytes, until its trailer checks.
    hold: Hold,
    /// The fault being raised leaves the member's bytes whole (a CRC-32
    /// mismatch with the right length).
    whole: bool,
}

impl Gzip {
    #[cfg(test)]
    pub fn new(source: Source) -> Gzip {
        Gzip::resume(source, 0, None)
    }
}

impl Units for Gzip {
    /// (Each piece decodes to a MiB or so, in a buffer of its job's. Twice
    /// the jobs at 1 MiB took `normalize -j2`'s peak memory from 160 to
    /// 219 MB, at 512 KiB 148 MB, at 256 KiB 117 MB, as fast. Every source
    /// read at once has batches of its own: four `.warc.gz` files at
    /// `-j2`, two at a time on both cores, took 361 MB at 512 KiB, 273 MB
    /// at 256 KiB (one at a time on one core each, 204 MB). Fresh memory is
    /// not free either: on 100 MB the kernel zeroing pages for those
    /// buffers was a third of the decoding threads' samples.)
    const SEGMENT: usize = 256 << 10;
    /// (Members up to a segment, 256 KiB, are decoded in batches.)
    const SMALL: usize = 1;
    /// (Inflating is slow next to the workers' share: two cores gain.)
    const MIN_CORES: usize = 2;
    /// (Two jobs per core: `normalize -j2` of a 1 GB `.warc.gz`, a member
    /// per record, 1.40x `-j1` with one job per core and 1 MiB segments,
    /// 1.65x with two and 512 KiB, as fast with 256 KiB.)
    const JOBS_PER_CORE: usize = 2;
    const THREADS: &'static str = "urlsift gzip members";
    fn next_start(window: &[u8], from: usize, limit: usize) -> Option<usize> {
        next_header(window, from, limit)
    }

    fn dictionary(&self) -> Dictionary {
        None
    }

    /// A decoder at a member boundary, after `members` complete members
    /// (then what follows may also be padding or garbage, as after any
    /// member; the first member is mandatory). (Gzip has no dictionary.)
    fn resume(source: Source, members: u64, _: Dictionary) -> Gzip {
        let start = source.offset();
        Gzip {
            source,
            inflate: Decompress::new(false),
            crc: Crc::new(),
            stage: if members == 0 {
                Stage::Header
            } else {
                Stage::Between
            },
            progress: Progress::Going,
            member: members,
            member_start: start,
            hold: Hold::default(),
            whole: false,
        }
    }
}

impl UnitCodec for Gzip {
    unit_fields!();

    fn between(&self) -> bool {
        matches!(self.stage, Stage::Between)
    }

    fn units(&self) -> (u64, u64) {
        (self.member, self.member_start)
    }

    fn step(&mut self, out: &mut [u8]) -> io::Result<usize> {
        Gzip::step(self, out)
    }

    fn after_fault(&mut self, e: io::Error) -> Progress {
        Gzip::after_fault(self, e)
    }
}

impl Gzip {
    fn fault(&self, fault: Fault, offset: u64) -> io::Error {
        DecodeError {
            format: Compression::Gzip,
            fault,
            offset,
            unit: Some((self.member, self.member_start)),
            resumed: None,
            damaged: None,
            aligned: false,
        }
        .into()
    }

    /// How the stream stands after fault `e`: resumed at the next member
    /// found after it, or failed if none follows (or `e` is a cut or a
    /// read error, after which nothing more can be read). The member's
    /// held bytes go out first after a cut (they are exact as far as they
    /// go), and with the fault, as damaged, after anything else.
    fn after_fault(&mut self, e: io::Error) -> Progress {
        let e = self.hold.after_fault(e, std::mem::take(&mut self.whole));
        let source = &mut self.source;
        // The next member starts past this one's first byte: a header that
        // fails yet looks plausible (a bad header CRC) must not be found
        // again, and again.
        let start = self.member_start;
        match resume(e, self.hold.ends().at_lines(), || {
            source.skip_past(start)?;
            source.skip_to(|b| b == GZIP_MAGIC[0], 10, plausible_header)
        }) {
            Ok(e) => {
                self.stage = Stage::Header;
                Progress::Resumed(e)
            }
            Err(e) => Progress::Failed(e),
        }
    }

    fn corrupt(&self, reason: &str, offset: u64) -> io::Error {
        self.fault(Fault::Corrupt(reason.to_string()), offset)
    }

    /// Truncated at the end of the input (which `source` has reached).
    fn truncated(&self) -> io::Error {
        self.fault(Fault::Truncated, self.source.offset())
    }

    /// One step: decodes some bytes into `out` (possibly none) or moves
    /// to the next stage.
    fn step(&mut self, out: &mut [u8]) -> io::Result<usize> {
        match self.stage {
            Stage::Header => {
                self.member += 1;
                self.member_start = self.source.offset();
                self.header()?;
                self.inflate.reset(false);
                self.crc.reset();
                self.stage = Stage::Body;
                Ok(0)
            }
            Stage::Body => {
                let mut hold = std::mem::take(&mut self.hold);
                let result = hold.decode(out, |buf| self.inflate_some(buf));
                self.hold = hold;
                let (made, fault) = result?;
                if let Some(e) = fault {
                    self.progress = self.after_fault(e);
                }
                Ok(made)
            }
            Stage::Trailer => {
                self.trailer()?;
                self.hold.unit_ended();
                self.stage = Stage::Between;
                Ok(0)
            }
            Stage::Between => {
                if self.source.peek(2)?.starts_with(&GZIP_MAGIC) {
                    self.stage = Stage::Header;
                } else {
                    check_end(&mut self.source, Compression::Gzip)?;
                    self.progress = Progress::Done;
                }
                Ok(0)
            }
        }
    }

    /// Reads a member header, checking every field gzip defines.
    fn header(&mut self) -> io::Result<()> {
        let start = self.source.offset();
        let Some(fixed) = self.source.peek_whole(10)? else {
            return Err(self.truncated());
        };
        let mut fixed_copy = [0u8; 10];
        fixed_copy.copy_from_slice(fixed);
        if fixed_copy[..2] != GZIP_MAGIC {
            // (Only a file taken for gzip by its name can start so.)
            let reason = if start == 0 {
                "not a gzip member header, though the file is named .gz (plain text is read as such from standard input)"
            } else {
                "not a gzip member header"
            };
            return Err(self.corrupt(reason, start));
        }
        if fixed_copy[2] != CM_DEFLATE {
            return Err(self.corrupt("unknown compression method", start + 2));
        }
        let flags = fixed_copy[3];
        if flags & RESERVED != 0 {
            return Err(self.corrupt("reserved header flags are set", start + 3));
        }
        let mut hcrc = Crc::new();
        hcrc.update(&fixed_copy);
        self.source.take(10);
        if flags & FEXTRA != 0 {
            let xlen = self.header_bytes::<2>(&mut hcrc)?;
            self.skip(u16::from_le_bytes(xlen) as u64, &mut hcrc)?;
        }
        if flags & FNAME != 0 {
            self.skip_string(&mut hcrc)?;
        }
        if flags & FCOMMENT != 0 {
            self.skip_string(&mut hcrc)?;
        }
        if flags & FHCRC != 0 {
            let at = self.source.offset();
            let expected = hcrc.sum() as u16;
            if u16::from_le_bytes(self.header_bytes::<2>(&mut hcrc)?) != expected {
                return Err(self.corrupt("header CRC mismatch", at));
            }
        }
        Ok(())
    }

    /// The next `N` bytes of a header, added to its CRC.
    fn header_bytes<const N: usize>(&mut self, hcrc: &mut Crc) -> io::Result<[u8; N]> {
        let Some(bytes) = self.source.peek_whole(N)? else {
            return Err(self.truncated());
        };
        let mut out = [0u8; N];
        out.copy_from_slice(bytes);
        hcrc.update(&out);
        self.source.take(N);
        Ok(out)
    }

    /// Skips `n` header bytes, adding them to the header CRC.
    fn skip(&mut self, mut n: u64, hcrc: &mut Crc) -> io::Result<()> {
        while n > 0 {
            let bytes = self.source.fill_buf()?;
            if bytes.is_empty() {
                return Err(self.truncated());
            }
            let k = bytes.len().min(n.try_into().unwrap_or(usize::MAX));
            hcrc.update(&bytes[..k]);
            self.source.take(k);
            n -= k as u64;
        }
        Ok(())
    }

    /// Skips a zero-terminated header field (file name or comment).
    fn skip_string(&mut self, hcrc: &mut Crc) -> io::Result<()> {
        loop {
            let bytes = self.source.fill_buf()?;
            if bytes.is_empty() {
                return Err(self.truncated());
            }
            let (k, done) = match memchr::memchr(0, bytes) {
                Some(at) => (at + 1, true),
                None => (bytes.len(), false),
            };
            hcrc.update(&bytes[..k]);
            self.source.take(k);
            if done {
                return Ok(());
            }
        }
    }

    /// Inflates what the buffered input gives into `out`: how many bytes,
    /// and the fault that stopped the inflater, if one did (the bytes
    /// before it count).
    fn inflate_some(&mut self, out: &mut [u8]) -> io::Result<(usize, Option<io::Error>)> {
        let input = self.source.fill_buf()?;
        let at_end = input.is_empty();
        let (in_before, out_before) = (self.inflate.total_in(), self.inflate.total_out());
        let result = self.inflate.decompress(input, out, FlushDecompress::None);
        // The counters are updated even when the call fails.
        let taken = (self.inflate.total_in() - in_before) as usize;
        let made = (self.inflate.total_out() - out_before) as usize;
        self.source.take(taken);
        self.crc.update(&out[..made]);
        let fault = match result {
            Ok(Status::StreamEnd) => {
                self.stage = Stage::Trailer;
                None
            }
            Ok(Status::Ok | Status::BufError) if taken == 0 && made == 0 => {
                // No progress with room to write: the input must be over.
                Some(if at_end {
                    self.truncated()
                } else {
                    self.corrupt("the inflater made no progress", self.source.offset())
                })
            }
            Ok(_) => None,
            Err(e) => Some(self.corrupt(&deflate_reason(&e), self.source.offset())),
        };
        Ok((made, fault))
    }

    /// Checks the trailer: CRC-32 and length (mod 2^32) of the member.
    fn trailer(&mut self) -> io::Result<()> {
        let at = self.source.offset();
        let Some(bytes) = self.source.peek_whole(8)? else {
            return Err(self.truncated());
        };
        let crc = u32::from_le_bytes(bytes[..4].try_into().expect("4 bytes"));
        let size = u32::from_le_bytes(bytes[4..8].try_into().expect("4 bytes"));
        if crc != self.crc.sum() {
            self.whole = size == self.inflate.total_out() as u32;
            return Err(self.corrupt("CRC-32 mismatch (the data is damaged)", at));
        }
        if size != self.inflate.total_out() as u32 {
            return Err(self.corrupt("length mismatch (the data is damaged)", at + 4));
        }
        self.source.take(8);
        Ok(())
    }
}

/// What the inflater's error says about the data. zlib-rs reports every
/// fault in DEFLATE data as "repeated call with bad state" (the message of
/// the state it ends in overwrites the one that says why), which reads as
/// a fault of the caller: that one is named for what it means.
fn deflate_reason(e: &flate2::DecompressError) -> String {
    match e.message() {
        None | Some("repeated call with bad state") => "invalid DEFLATE data".to_string(),
        Some(why) => format!("invalid DEFLATE data: {why}"),
    }
}

/// Whether `head` (10 bytes) looks like a member header that a search
/// after damage may resume at: the magic, DEFLATE, no reserved flag, and
/// the extra-flags values that gzip writers use (together about one
/// chance in 10^9 for random bytes; members in order are read without the
/// last check).
fn plausible_header(head: &[u8]) -> bool {
    // The OS byte is not judged: writers put values RFC 1952 does not
    // list there (warcio's sample `example.warc.gz` has 19 in every
    // member), and a member refused here would be lost with the damaged
    // one before it.
    matches!(head, [0x1f, 0x8b, CM_DEFLATE, flags, _, _, _, _, xfl, _]
        if flags & RESERVED == 0 && matches!(xfl, 0 | 2 | 4))
}

impl Decode for Gzip {
    fn decode(&mut self, out: &mut [u8]) -> io::Result<usize> {
        self.decode_paused(out, false)
    }
}
