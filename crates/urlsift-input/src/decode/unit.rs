//! The decoding loop gzip and zstd share: a stream of units (gzip members,
//! zstd frames) that decode alone, one after another, each unit's bytes
//! held until its check passes ([`Hold`]), faults resumed after where a
//! next unit is found. A format gives its steps ([`UnitCodec`]); the loop,
//! the boundaries the parallel decoder stops and starts at, and the
//! decoder's state between units are written once, here, as the default
//! methods of [`Units`](super::parallel::Units).

use std::io;

use super::fault::{Progress, UnitEnds};
use super::hold::Hold;
use super::source::Source;

/// What a unit format's decoder is made of, for the shared loop.
pub(super) trait UnitCodec: Send + Sized {
    /// The compressed input.
    fn source(&self) -> &Source;
    /// The compressed input, taken back.
    fn take_source(self) -> Source;
    /// The bytes decoded and not yet handed out, per unit.
    fn hold(&self) -> &Hold;
    /// See [`UnitCodec::hold`].
    fn hold_mut(&mut self) -> &mut Hold;
    /// How the stream stands.
    fn progress(&self) -> &Progress;
    /// See [`UnitCodec::progress`].
    fn progress_mut(&mut self) -> &mut Progress;
    /// Whether the decoder stands between two units (or before the
    /// first).
    fn between(&self) -> bool;
    /// Whether every unit before where the decoder stands is checked (a
    /// zstd frame's end may be read before its checksum).
    fn checked(&self) -> bool {
        true
    }
    /// How many units have started, and where the last of them did.
    fn units(&self) -> (u64, u64);
    /// One step: decodes some bytes into `out` (possibly none) or moves
    /// to the next stage of a unit.
    fn step(&mut self, out: &mut [u8]) -> io::Result<usize>;
    /// How the stream stands after fault `e`: resumed at the next unit
    /// found after it, or failed.
    fn after_fault(&mut self, e: io::Error) -> Progress;
}

/// The accessors of [`UnitCodec`] for a decoder whose fields `source`,
/// `hold` and `progress` are those parts (gzip's and zstd's are).
macro_rules! unit_fields {
    () => {
        fn source(&self) -> &Source {
            &self.source
        }

        fn take_source(self) -> Source {
            self.source
        }

        fn hold(&self) -> &Hold {
            &self.hold
        }

        fn hold_mut(&mut self) -> &mut Hold {
            &mut self.hold
        }

        fn progress(&self) -> &Progress {
            &self.progress
        }

        fn progress_mut(&mut self) -> &mut Progress {
            &mut self.progress
        }
    };
}
pub(super) use unit_fields;

/// The same decoder, knowing how the units before it ended.
pub(super) fn with_ends<C: UnitCodec>(mut codec: C, ends: UnitEnds) -> C {
    codec.hold_mut().set_ends(ends);
    codec
}

/// The same decoder, handing bytes out before their unit's check (for
/// callers that check units themselves: the parallel decoder's jobs).
pub(super) fn unheld<C: UnitCodec>(mut codec: C) -> C {
    *codec.hold_mut() = Hold::off();
    codec
}

/// How many units are complete, if the decoder stands between two (or
/// after the last) with every byte handed out, and where the last of them
/// started.
pub(super) fn boundary<C: UnitCodec>(codec: &C) -> Option<(u64, u64)> {
    let going = matches!(codec.progress(), Progress::Going);
    (going && codec.between() && codec.checked() && !codec.hold().pending()).then(|| codec.units())
}

/// Decodes into `out`; when `pause` is set it returns as soon as a unit
/// has ended and been checked, so the caller sees every boundary.
pub(super) fn decode_paused<C: UnitCodec>(
    codec: &mut C,
    out: &mut [u8],
    pause: bool,
) -> io::Result<usize> {
    let mut n = 0;
    // A unit ended in this call, its bytes not yet all out.
    let mut unit_ended = false;
    loop {
        n += codec.hold_mut().release(&mut out[n..]);
        if codec.hold().pending() {
            return Ok(n);
        }
        if pause && unit_ended && boundary(codec).is_some() {
            return Ok(n);
        }
        if let Some(result) = codec.progress_mut().ended(n, out.len()) {
            return result;
        }
        let (inside, started) = (!codec.between(), codec.units().0);
        match codec.step(&mut out[n..]) {
            Ok(k) => n += k,
            Err(e) => *codec.progress_mut() = codec.after_fault(e),
        }
        // (A unit that starts and ends in one step, an empty skippable
        // frame, counts too.)
        unit_ended |= codec.between() && (inside || codec.units().0 != started);
    }
}

/// Whether the input ended cleanly after the last unit.
pub(super) fn is_done<C: UnitCodec>(codec: &C) -> bool {
    matches!(codec.progress(), Progress::Done)
}
