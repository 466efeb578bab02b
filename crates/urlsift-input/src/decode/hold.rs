//! Holding a member's (or frame's) decoded bytes back until its check
//! passes, so that damage only its CRC-32 (or zstd checksum) can see does
//! not reach the caller as good data.
//!
//! Damage inside DEFLATE data often decodes to other valid codes: the
//! inflater goes on, writing wrong bytes, and only the trailer's CRC-32
//! finds out, after every byte of the member was decoded. Handed out as
//! they came, those bytes would be read as records, and a damaged URL can
//! still be a valid one. So a unit's bytes wait here until its check:
//! passed, they go out; failed, they go with the fault as
//! [`Damaged`](super::Damaged) bytes, which the reader turns into rejected
//! records (nothing lost, nothing invented). A cut unit's bytes go out:
//! what was decoded before a cut is exact.
//!
//! Memory stays bounded: a unit that decodes to more than [`LIMIT`]
//! bytes (a one-member `.gz` of a whole file, a zstd file of one frame)
//! cannot be held whole, so once it passes the limit its bytes go out
//! unchecked, as `gzip -dc` hands them out, and a fault found at its end
//! is reported after them.
//!
//! The hold also keeps how units ended ([`UnitEnds`]): a unit's last
//! decoded byte passes through [`Hold::decode`] whether it is held or not.

use std::io;
use std::sync::Arc;

use super::fault::{Damaged, Fault, UnitEnds, decode_error};

/// The most of one unit's decoded bytes held back for its check.
pub(super) const LIMIT: usize = 4 << 20;

/// The first room taken for a unit's bytes (grown by doubling).
const FIRST_ROOM: usize = 64 << 10;

/// A unit's decoded bytes, held until its check (see the module notes).
#[derive(Default)]
pub(super) struct Hold {
    /// Held bytes: `buf[..len]` (the rest is room).
    buf: Vec<u8>,
    len: usize,
    /// While handing out: `buf[out..len]` are still to go.
    out: usize,
    releasing: bool,
    /// The unit passed the limit: its next bytes go straight out.
    streaming: bool,
    /// Off for decoders whose units are checked before their bytes are
    /// used (the parallel decoder's jobs): then everything streams.
    off: bool,
    /// The unit's last decoded byte, and how the units so far ended.
    last: Option<u8>,
    ends: UnitEnds,
}

impl Hold {
    /// A hold that holds nothing back: bytes go straight out.
    pub fn off() -> Hold {
        Hold {
            off: true,
            ..Hold::default()
        }
    }

    /// The unit's bytes held so far, while all of them are (`None` once it
    /// streamed past the limit, or when nothing is held back).
    pub fn held(&self) -> Option<&[u8]> {
        (!self.off && !self.streaming && !self.releasing).then(|| &self.buf[..self.len])
    }

    /// Copies held bytes that are being handed out into `out`; returns
    /// how many.
    pub fn release(&mut self, out: &mut [u8]) -> usize {
        if !self.releasing {
            return 0;
        }
        let k = (self.len - self.out).min(out.len());
        out[..k].copy_from_slice(&self.buf[self.out..self.out + k]);
        self.out += k;
        if self.out == self.len {
            (self.len, self.out, self.releasing) = (0, 0, false);
        }
        k
    }

    /// Whether held bytes are waiting to be handed out.
    pub fn pending(&self) -> bool {
        self.releasing
    }

    /// How the units so far ended.
    pub fn ends(&self) -> UnitEnds {
        self.ends
    }

    /// Takes over how earlier units ended (from the decoder that read them).
    pub fn set_ends(&mut self, ends: UnitEnds) {
        self.ends = ends;
    }

    /// Decodes the unit's next bytes with `decode`, which writes into the
    /// buffer it is given and says how many bytes it wrote (with whatever
    /// else it returns): into the hold while the unit is held, else
    /// straight into `out`. Returns how many went into `out`. Past the
    /// limit, nothing is decoded until the held bytes are out
    /// ([`Hold::pending`]).
    ///
    /// (A decoder keeps its hold as a field: it moves the hold out of
    /// itself around this call, so `decode` may borrow the decoder.)
    pub fn decode<T: Default>(
        &mut self,
        out: &mut [u8],
        decode: impl FnOnce(&mut [u8]) -> io::Result<(usize, T)>,
    ) -> io::Result<(usize, T)> {
        let held = self.make_room();
        if !held && self.pending() {
            return Ok((0, T::default()));
        }
        let buf = if held { &mut self.buf[self.len..] } else { out };
        let (made, other) = decode(buf)?;
        if made > 0 {
            self.last = Some(buf[made - 1]);
        }
        if held {
            self.len += made;
            return Ok((0, other));
        }
        Ok((made, other))
    }

    /// Whether the unit's next decoded bytes go into the hold (which has
    /// room after its `len` then), or straight into the caller's buffer.
    /// Past the limit, the held bytes are handed out first
    /// ([`Hold::pending`]: decode nothing until they are out).
    fn make_room(&mut self) -> bool {
        if self.off || self.streaming {
            return false;
        }
        if self.len == self.buf.len() {
            if self.len >= LIMIT {
                self.streaming = true;
                self.releasing = self.len > 0;
                return false;
            }
            let grown = (self.buf.len() * 2).clamp(FIRST_ROOM, LIMIT);
            self.buf.resize(grown, 0);
        }
        true
    }

    /// The unit checked out (or was cut: its bytes are exact as far as
    /// they go): its held bytes are handed out, and the next unit is held.
    pub fn unit_ended(&mut self) {
        self.ends.add(self.last.take());
        self.streaming = false;
        self.releasing = self.len > 0;
    }

    /// After fault `e` in the unit: a corrupt unit's held bytes go with
    /// the fault, set aside as damaged (`whole`: every byte of the unit is
    /// there); after anything else (a cut, a read error) they are exact as
    /// far as they go, and are handed out.
    pub fn after_fault(&mut self, e: io::Error, whole: bool) -> io::Error {
        let corrupt = decode_error(&e).is_some_and(|d| matches!(d.fault, Fault::Corrupt(_)));
        if !corrupt {
            self.unit_ended();
            return e;
        }
        let held = self.unit_failed();
        match decode_error(&e) {
            Some(d) if !held.is_empty() => {
                let mut d = d.clone();
                d.damaged = Some(Damaged {
                    bytes: Arc::new(held),
                    whole,
                });
                d.into()
            }
            _ => e,
        }
    }

    /// The unit failed its check: its held bytes, which must not be
    /// handed out as data (empty when it streamed past the limit).
    pub fn unit_failed(&mut self) -> Vec<u8> {
        let held = self.buf[..self.len].to_vec();
        self.last = None;
        self.streaming = false;
        (self.len, self.out, self.releasing) = (0, 0, false);
        held
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fill(hold: &mut Hold, bytes: &[u8]) {
        let mut rest = bytes;
        while !rest.is_empty() {
            let (out, ()) = hold
                .decode(&mut [], |room| {
                    assert!(!room.is_empty(), "holding");
                    let k = room.len().min(rest.len());
                    room[..k].copy_from_slice(&rest[..k]);
                    rest = &rest[k..];
                    Ok((k, ()))
                })
                .unwrap();
            assert_eq!(out, 0, "holding");
        }
    }

    fn drain(hold: &mut Hold, step: usize) -> Vec<u8> {
        let mut out = Vec::new();
        let mut buf = vec![0; step];
        while hold.pending() {
            let k = hold.release(&mut buf);
            out.extend_from_slice(&buf[..k]);
        }
        out
    }

    #[test]
    fn a_checked_unit_goes_out_a_failed_one_is_set_aside() {
        let mut hold = Hold::default();
        let a: Vec<u8> = (0..200_000u32).map(|i| i as u8).collect();
        fill(&mut hold, &a);
        assert!(!hold.pending(), "nothing goes out before the check");
        hold.unit_ended();
        assert_eq!(drain(&mut hold, 777), a);
        fill(&mut hold, b"damaged");
        assert_eq!(hold.unit_failed(), b"damaged");
        assert!(!hold.pending());
        fill(&mut hold, b"next");
        hold.unit_ended();
        assert_eq!(drain(&mut hold, 3), b"next");
    }

    #[test]
    fn a_unit_past_the_limit_streams_after_its_held_bytes() {
        let mut hold = Hold::default();
        let big = vec![7u8; LIMIT];
        fill(&mut hold, &big);
        assert!(!hold.make_room(), "full: the unit streams");
        assert!(hold.pending(), "the held bytes go out first");
        assert_eq!(drain(&mut hold, 1 << 20), big);
        assert!(!hold.make_room(), "the rest of the unit streams");
        assert!(hold.unit_failed().is_empty(), "nothing held to set aside");
        assert!(hold.make_room(), "the next unit is held again");
    }

    /// A unit's last byte counts whether it was held or went straight
    /// out; a failed unit's does not.
    #[test]
    fn how_units_ended_is_kept_held_or_not() {
        let mut hold = Hold::default();
        fill(&mut hold, b"a\nb\n");
        hold.unit_ended();
        drain(&mut hold, 16);
        assert!(hold.ends().at_lines());
        fill(&mut hold, b"c\nd");
        hold.unit_failed();
        assert!(hold.ends().at_lines(), "a failed unit's end is no evidence");
        let mut off = Hold::off();
        off.set_ends(hold.ends());
        let mut out = [0u8; 8];
        let (n, ()) = off
            .decode(&mut out, |buf| {
                buf[..3].copy_from_slice(b"e\nf");
                Ok((3, ()))
            })
            .unwrap();
        assert_eq!(&out[..n], b"e\nf", "straight out");
        off.unit_ended();
        assert!(!off.ends().at_lines(), "a unit that ended mid-line");
    }

    #[test]
    fn an_off_hold_holds_nothing() {
        let mut hold = Hold::off();
        assert!(!hold.make_room());
        hold.unit_ended();
        assert!(!hold.pending());
        assert!(hold.unit_failed().is_empty());
    }
}
