//! Readers for tests (this crate's and the record engine's): input handed
//! out in small pieces, or failing after its bytes, as decoders and disks
//! do. Not part of the API.

use std::io::{self, Read};

/// Reads its bytes, then fails with "the disk is on fire".
pub struct FailsAfter<R>(pub R);

impl<R: Read> Read for FailsAfter<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        match self.0.read(out)? {
            0 if !out.is_empty() => Err(io::Error::other("the disk is on fire")),
            n => Ok(n),
        }
    }
}

/// Hands out at most `.1` bytes a call, as a decompressor does.
pub struct Dribble<'a>(pub &'a [u8], pub usize);

impl Read for Dribble<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.0.len().min(self.1).min(buf.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}
