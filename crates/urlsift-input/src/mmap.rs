//! Memory-mapped input: plain regular files are read through a read-only
//! mapping, so chunks are slices of the page cache and no byte is copied
//! into our buffers (pipes, standard input and compressed files are read
//! into reused buffers instead). This is the record engine's one module with
//! `unsafe` (see DESIGN.md), two blocks, each with its SAFETY comment.

//!
//! ```
//! use urlsift_input::mmap::{Map, MapSlice};
//!
//! # let tmp = tempfile::Builder::new().prefix("urlsift-doc-mmap-").tempdir()?;
//! # let dir = tmp.path();
//! let path = dir.join("urls.txt");
//! std::fs::write(&path, "https://e.com/\n")?;
//! let map = Map::new(&std::fs::File::open(&path)?)?.expect("a non-empty regular file");
//! let slice = MapSlice::new(map.clone(), 8..13);
//! assert_eq!(slice.bytes(), b"e.com");
//! // An empty file is not mapped: it is read (as nothing).
//! std::fs::write(&path, "")?;
//! assert!(Map::new(&std::fs::File::open(&path)?)?.is_none());
//! # Ok::<(), std::io::Error>(())
//! ```

use std::fs::File;
use std::io;
use std::ops::Range;
use std::sync::Arc;

use memmap2::{Advice, Mmap, UncheckedAdvice};

/// A read-only mapping of a whole file.
pub struct Map {
    map: Mmap,
}

/// Pages are released in whole blocks of this size, a multiple of every
/// page size in use (4 KiB to 64 KiB).
const BLOCK: usize = 64 << 10;

impl Map {
    /// Maps `file` when it is a regular file of at least one byte (`None`
    /// otherwise: read it instead).
    pub fn new(file: &File) -> io::Result<Option<Arc<Map>>> {
        let meta = file.metadata()?;
        if !meta.is_file() || meta.len() == 0 {
            return Ok(None);
        }
        // SAFETY: the mapping is read-only and private, and `Map` hands out
        // only shared slices of it. The risk is outside the process: if
        // another program truncates the file while it is mapped, touching
        // the lost pages raises SIGBUS and the run dies (its -o file is
        // then never committed, so no partial output is left); if another
        // program writes to the file, our slices see bytes change under
        // them, which Rust's model does not allow for a `&[u8]`. Copying
        // the file instead would cost a fifth of the run (measured: the
        // kernel's copy into our buffers), and tools that scan files for
        // users, ripgrep first among them, make the same trade for the
        // same reason: a file being rewritten while it is read gives
        // meaningless results whatever the reading method.
        let map = unsafe { Mmap::map(file)? };
        // Read front to back: the kernel reads ahead more eagerly.
        let _ = map.advise(Advice::Sequential);
        Ok(Some(Arc::new(Map { map })))
    }

    /// The file's bytes.
    #[inline]
    pub fn bytes(&self) -> &[u8] {
        &self.map
    }

    /// Lets the process's resident memory forget the pages of `range`,
    /// which no one will read again (they stay in the page cache). Chunks
    /// are written, and dropped, in input order: the block a range shares
    /// with the one before it goes with it, and the block it shares with
    /// the next goes with the next. (A block whose other chunk is still in
    /// flight only has to be read in again: see the SAFETY note below.)
    pub fn release(&self, range: Range<usize>) {
        let start = range.start / BLOCK * BLOCK;
        let end = range.end / BLOCK * BLOCK;
        if start >= end {
            return;
        }
        // SAFETY: MADV_DONTNEED on a private, read-only file mapping whose
        // pages this process never wrote drops them from the process; a
        // later access faults them in again from the file, with the same
        // bytes. So no slice of the map, even one someone still held,
        // could observe a change: the advice only costs a refault. The
        // range lies within the map (a chunk's range, widened down to a
        // block boundary, which is still inside the map).
        let _ = unsafe {
            self.map
                .unchecked_advise_range(UncheckedAdvice::DontNeed, start, end - start)
        };
    }
}

/// A slice of a [`Map`]: a chunk's bytes. Dropping it (once its chunk is
/// written out) releases its pages from the process, so resident memory
/// stays at the chunks in flight however large the file is.
pub struct MapSlice {
    map: Arc<Map>,
    range: Range<usize>,
}

impl MapSlice {
    /// The bytes `range` of `map`.
    pub fn new(map: Arc<Map>, range: Range<usize>) -> MapSlice {
        debug_assert!(range.end <= map.bytes().len());
        MapSlice { map, range }
    }

    /// The slice's bytes.
    #[inline]
    pub fn bytes(&self) -> &[u8] {
        &self.map.bytes()[self.range.clone()]
    }
}

impl AsRef<[u8]> for MapSlice {
    fn as_ref(&self) -> &[u8] {
        self.bytes()
    }
}

impl Drop for MapSlice {
    fn drop(&mut self) {
        self.map.release(self.range.clone());
    }
}
