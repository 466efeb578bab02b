//! The compressed bytes as a decoder reads them: one reused buffer over
//! the raw input that counts every byte taken, so a fault is reported at
//! its offset in the compressed file.

use std::io::{self, Cursor, Read};

/// Bytes read from the raw input per system call.
const CAPACITY: usize = 1 << 18;

pub(super) struct Source {
    inner: Box<dyn Read + Send>,
    buf: Box<[u8]>,
    /// The buffered bytes not yet taken are `buf[start..end]`.
    start: usize,
    end: usize,
    /// Bytes taken so far: the offset of `buf[start]` in the input.
    offset: u64,
    eof: bool,
}

impl Source {
    pub fn new(inner: Box<dyn Read + Send>) -> Source {
        Source::with_capacity(inner, CAPACITY)
    }

    /// A source reading at most `capacity` bytes at a time (tests use
    /// small ones to put buffer edges everywhere).
    pub fn with_capacity(inner: Box<dyn Read + Send>, capacity: usize) -> Source {
        Source {
            inner,
            buf: vec![0; capacity.max(16)].into_boxed_slice(),
            start: 0,
            end: 0,
            offset: 0,
            eof: false,
        }
    }

    /// A source at byte `offset` of an input: `head` holds the input's next
    /// bytes, `inner` the rest (unless `eof`: then it is spent).
    pub fn resume(head: &[u8], inner: Box<dyn Read + Send>, offset: u64, eof: bool) -> Source {
        let mut buf = vec![0; head.len().max(CAPACITY)].into_boxed_slice();
        buf[..head.len()].copy_from_slice(head);
        Source {
            inner,
            buf,
            start: 0,
            end: head.len(),
            offset,
            eof,
        }
    }

    /// The source taken apart: the buffered bytes not yet taken, the rest
    /// of the input, the offset of the first buffered byte, and whether the
    /// rest is spent.
    pub fn into_parts(self) -> (Vec<u8>, Box<dyn Read + Send>, u64, bool) {
        let head = self.buf[self.start..self.end].to_vec();
        (head, self.inner, self.offset, self.eof)
    }

    /// How many bytes have been taken: the offset of the next byte.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Marks the first `n` buffered bytes as used.
    pub fn take(&mut self, n: usize) {
        assert!(n <= self.end - self.start, "take past the buffered bytes");
        self.start += n;
        self.offset += n as u64;
    }

    /// The buffered bytes, reading more if none are left; empty only at
    /// the end of the input.
    pub fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.start == self.end {
            self.start = 0;
            self.end = 0;
            self.read_more()?;
        }
        Ok(&self.buf[self.start..self.end])
    }

    /// At least `n` buffered bytes in a row (`n` at most 16), fewer only
    /// when the input ends first.
    pub fn peek(&mut self, n: usize) -> io::Result<&[u8]> {
        debug_assert!(n <= 16);
        while self.end - self.start < n && !self.eof {
            if self.buf.len() - self.start < n {
                self.buf.copy_within(self.start..self.end, 0);
                self.end -= self.start;
                self.start = 0;
            }
            self.read_more()?;
        }
        let end = self.end.min(self.start + n);
        Ok(&self.buf[self.start..end])
    }

    /// Exactly `n` buffered bytes in a row (`n` at most 16), or `None` when
    /// the input ends first: then what was left is taken, so the offset is
    /// the input's length.
    pub fn peek_whole(&mut self, n: usize) -> io::Result<Option<&[u8]>> {
        let got = self.peek(n)?.len();
        if got < n {
            self.take(got);
            return Ok(None);
        }
        Ok(Some(&self.buf[self.start..self.start + n]))
    }

    /// Takes bytes until the offset is past `at` (or the input ends).
    pub fn skip_past(&mut self, at: u64) -> io::Result<()> {
        while self.offset <= at {
            let n = self.fill_buf()?.len();
            if n == 0 {
                break;
            }
            let k = usize::try_from(at + 1 - self.offset).map_or(n, |k| k.min(n));
            self.take(k);
        }
        Ok(())
    }

    /// Takes bytes up to the next place where `starts` holds for the `len`
    /// bytes there (`len` at most 16; fewer only at the end), trying only
    /// places whose first byte passes `first`. Returns that place's
    /// offset, or `None` (everything taken) if the input ends first.
    pub fn skip_to(
        &mut self,
        first: impl Fn(u8) -> bool,
        len: usize,
        starts: impl Fn(&[u8]) -> bool,
    ) -> io::Result<Option<u64>> {
        loop {
            let bytes = self.fill_buf()?;
            let Some(i) = bytes.iter().position(|&b| first(b)) else {
                let n = bytes.len();
                if n == 0 {
                    return Ok(None);
                }
                self.take(n);
                continue;
            };
            self.take(i);
            let head = self.peek(len)?;
            if starts(head) {
                return Ok(Some(self.offset));
            }
            if head.len() < len {
                let n = head.len();
                self.take(n);
                return Ok(None);
            }
            self.take(1);
        }
    }

    /// One read into the free end of the buffer; sets `eof` on 0.
    fn read_more(&mut self) -> io::Result<()> {
        if self.eof {
            return Ok(());
        }
        loop {
            match self.inner.read(&mut self.buf[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(());
                }
                Ok(n) => {
                    self.end += n;
                    return Ok(());
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// The rest of the input as a plain reader, buffered bytes first.
    pub fn into_reader(self) -> Box<dyn Read + Send> {
        let buffered = self.buf[self.start..self.end].to_vec();
        Box::new(Cursor::new(buffered).chain(self.inner))
    }
}
