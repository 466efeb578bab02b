//! Output: stdout or an atomically written file, and the record
//! terminator.
//!
//! `-o FILE` is all or nothing: output goes to a temp file in FILE's
//! directory, which is fsynced, renamed over FILE and its directory fsynced
//! once the run succeeds. A run that fails (an input not read to its end,
//! an error) or is stopped by a signal (`interrupt`) leaves neither FILE
//! nor its temp file behind; standard output streams. A name ending `.gz`
//! or `.zst` gets the output compressed (`naming`). A FILE that is a symbolic link to a
//! file gets the output in the file linked to (the link stays a link). A
//! FILE that exists and is not a regular file (`/dev/null`, a FIFO, a
//! terminal, `/dev/stdout`) is written in place: renaming over it would
//! put a file where the device was. `-o s3://BUCKET/KEY` (or `gs://`, `az://`) begins a
//! multipart upload before the run (the bucket and the right to write
//! checked), spools the output to an unnamed temp file and sends it at
//! commit, the upload completed only then; a failed run aborts it. A
//! closed stdout (`| head`) is not an error: the run ends quietly with
//! status 0.

use std::fs::{self, File};
use std::io::{self, BufWriter, Seek, Write};
use std::path::{Path, PathBuf};

use urlsift_records::input;

use crate::error::CliError;
use crate::interrupt;
use crate::naming::{OutputName, Packing};

/// Stdout, or a temp file that becomes `path` on [`Sink::commit`]; gzip
/// or zstd compressed when the name ends `.gz` or `.zst`.
pub struct Sink {
    name: String,
    inner: BufWriter<Packed>,
    terminator: u8,
}

enum Target {
    Stdout(io::Stdout),
    File {
        temp: tempfile::NamedTempFile,
        path: PathBuf,
        registered: interrupt::Registered,
    },
    /// Not a regular file: written in place.
    Device(File),
    /// An object (`-o s3://BUCKET/KEY`): spooled to an unnamed temp file
    /// (gone with the process, whatever ends it), sent at commit.
    Remote {
        spool: File,
        upload: urlsift_records::input::remote::Upload,
    },
}

/// The target, through the compression the output's name asks for.
enum Packed {
    Plain(Target),
    Gzip(flate2::write::GzEncoder<Target>),
    Zstd(zstd::stream::write::Encoder<'static, Target>),
}

impl Packed {
    fn get_mut(&mut self) -> &mut dyn Write {
        match self {
            Packed::Plain(t) => t,
            Packed::Gzip(e) => e,
            Packed::Zstd(e) => e,
        }
    }

    /// Ends the compressed stream; the target.
    fn finish(self) -> io::Result<Target> {
        match self {
            Packed::Plain(t) => Ok(t),
            Packed::Gzip(e) => e.finish(),
            Packed::Zstd(e) => e.finish(),
        }
    }
}

impl Write for Packed {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.get_mut().write(buf)
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.get_mut().write_all(buf)
    }
    fn write_vectored(&mut self, bufs: &[io::IoSlice<'_>]) -> io::Result<usize> {
        self.get_mut().write_vectored(bufs)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.get_mut().flush()
    }
}

impl Write for Target {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Target::Stdout(s) => s.write(buf),
            Target::File { temp, .. } => temp.write(buf),
            Target::Device(f) => f.write(buf),
            Target::Remote { spool, .. } => spool.write(buf),
        }
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self {
            Target::Stdout(s) => s.write_all(buf),
            Target::File { temp, .. } => temp.write_all(buf),
            Target::Device(f) => f.write_all(buf),
            Target::Remote { spool, .. } => spool.write_all(buf),
        }
    }
    fn write_vectored(&mut self, bufs: &[io::IoSlice<'_>]) -> io::Result<usize> {
        match self {
            Target::Stdout(s) => s.write_vectored(bufs),
            Target::File { temp, .. } => temp.write_vectored(bufs),
            Target::Device(f) => f.write_vectored(bufs),
            Target::Remote { spool, .. } => spool.write_vectored(bufs),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Target::Stdout(s) => s.flush(),
            Target::File { temp, .. } => temp.flush(),
            Target::Device(f) => f.flush(),
            Target::Remote { spool, .. } => spool.flush(),
        }
    }
}

impl Sink {
    /// Opens stdout (`None` or `-`) or a temp file beside `path`, gzip or
    /// zstd compressed when `path` ends `.gz` or `.zst`.
    pub fn open(path: Option<&Path>, null: bool) -> Result<Sink, CliError> {
        Sink::open_packed(path, null, OutputName::of(path).packing)
    }

    /// [`Sink::open`], written as it is given whatever `path` ends with:
    /// for bytes the caller compresses (`get` writes a gzip member or
    /// zstd frame per record).
    pub fn open_as_is(path: Option<&Path>) -> Result<Sink, CliError> {
        Sink::open_packed(path, false, Packing::Plain)
    }

    fn open_packed(path: Option<&Path>, null: bool, packing: Packing) -> Result<Sink, CliError> {
        let terminator = if null { 0 } else { b'\n' };
        let (name, target) = match path {
            None => ("<stdout>".to_string(), Target::Stdout(io::stdout())),
            Some(p) if p == Path::new("-") => {
                ("<stdout>".to_string(), Target::Stdout(io::stdout()))
            }
            Some(p) if p.to_str().is_some_and(input::is_remote) => {
                let name = p.display().to_string();
                let failed = |error| CliError::Output {
                    name: name.clone(),
                    error,
                };
                let upload = input::remote::Upload::begin(&name).map_err(failed)?;
                let spool = tempfile::tempfile().map_err(failed)?;
                (name, Target::Remote { spool, upload })
            }
            Some(p) => {
                let name = p.display().to_string();
                let failed = |error| CliError::Output {
                    name: name.clone(),
                    error,
                };
                let target = match destination(p).map_err(failed)? {
                    // Appending, as a stream is written (`/dev/stdout`
                    // reopened under `>> log` must not write over it).
                    Destination::InPlace => Target::Device(
                        fs::OpenOptions::new()
                            .append(true)
                            .open(p)
                            .map_err(failed)?,
                    ),
                    Destination::Replace(path) => {
                        let dir = match path.parent() {
                            Some(d) if !d.as_os_str().is_empty() => d,
                            _ => Path::new("."),
                        };
                        // The error names the directory the file was to
                        // go in, not the temp file's own name.
                        let temp = tempfile::Builder::new()
                            .prefix(".urlsift-")
                            .suffix(".tmp")
                            .tempfile_in(dir)
                            .map_err(|error| CliError::Output {
                                name: format!("{name} (in {})", dir.display()),
                                error: io::Error::new(error.kind(), bare(&error)),
                            })?;
                        let registered = interrupt::Registered::new(temp.path());
                        Target::File {
                            temp,
                            path,
                            registered,
                        }
                    }
                };
                (name, target)
            }
        };
        let packed = match packing {
            Packing::Plain => Packed::Plain(target),
            Packing::Gzip => Packed::Gzip(flate2::write::GzEncoder::new(
                target,
                flate2::Compression::default(),
            )),
            Packing::Zstd => Packed::Zstd(zstd::stream::write::Encoder::new(target, 0).map_err(
                |error| CliError::Output {
                    name: name.clone(),
                    error,
                },
            )?),
        };
        Ok(Sink {
            name,
            inner: BufWriter::with_capacity(1 << 17, packed),
            terminator,
        })
    }

    /// The record terminator: `\n`, or NUL with `-0`.
    pub fn terminator(&self) -> u8 {
        self.terminator
    }

    /// The name errors give it: `<stdout>` or the path.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Writes bytes as they are.
    pub fn put(&mut self, bytes: &[u8]) -> Result<(), CliError> {
        self.inner
            .write_all(bytes)
            .map_err(|e| CliError::output(&self.name, e))
    }

    /// Writes one record and its terminator.
    pub fn record(&mut self, bytes: &[u8]) -> Result<(), CliError> {
        self.put(bytes)?;
        let t = [self.terminator];
        self.put(&t)
    }

    /// Flushes stdout, or makes the file durable and moves it into place.
    pub fn commit(self) -> Result<(), CliError> {
        let name = self.name;
        let err = |error: io::Error| CliError::output(&name, error);
        let packed = self
            .inner
            .into_inner()
            .map_err(|e| CliError::output(&name, e.into_error()))?;
        match packed.finish().map_err(err)? {
            Target::Stdout(mut s) => s.flush().map_err(err),
            Target::Device(mut f) => f.flush().map_err(err),
            // Sent whole, with no signal's exit in between: the object is
            // there complete, or not at all.
            Target::Remote { mut spool, upload } => interrupt::uninterrupted(|| {
                spool.rewind()?;
                upload.finish(&mut io::BufReader::with_capacity(1 << 20, spool))
            })
            .map_err(err),
            Target::File {
                temp,
                path,
                registered,
            } => {
                set_permissions(&temp, &path).map_err(err)?;
                temp.as_file().sync_all().map_err(err)?;
                registered.commit(|| temp.persist(&path).map_err(|e| err(e.error)))?;
                let dir = match path.parent() {
                    Some(d) if !d.as_os_str().is_empty() => d,
                    _ => Path::new("."),
                };
                // Make the rename itself durable.
                File::open(dir).and_then(|d| d.sync_all()).map_err(err)
            }
        }
    }

    /// Ends a run that could not read all its input: `-o` is all or
    /// nothing, so a file is not written (its temp file goes, and a note
    /// says so); a stream (stdout, a device) has had what came before the
    /// fault, and is flushed.
    pub fn abandon(self) -> Result<(), CliError> {
        let name = self.name;
        let mut packed = match self.inner.into_inner() {
            Ok(p) => p,
            // The temp file is dropped, and with it removed.
            Err(_) => return Ok(()),
        };
        let whole = |t: &Target| matches!(t, Target::File { .. } | Target::Remote { .. });
        let stream = match &mut packed {
            Packed::Plain(t) => !whole(t),
            Packed::Gzip(e) => !whole(e.get_ref()),
            Packed::Zstd(e) => !whole(e.get_ref()),
        };
        if stream {
            let mut target = packed.finish().map_err(|e| CliError::output(&name, e))?;
            return target.flush().map_err(|e| CliError::output(&name, e));
        }
        let _ = writeln!(
            io::stderr(),
            "urlsift: {name} not written: an input was not read to its end"
        );
        // (An object's upload is aborted as it drops.)
        Ok(())
    }
}

/// An I/O error's message without the path tempfile adds to it.
fn bare(error: &io::Error) -> String {
    let text = error.to_string();
    match text.find(" at path ") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// The sink as a writer for the engine. Vectored writes (a chunk's output
/// is runs of its input between rewritten records) go through the buffer
/// when they are small and straight to the target, after the buffer, when
/// they are large: copying every run into the buffer first would cost the
/// writer a pass over every byte (a few percent of a run, on a core the
/// workers need).
impl Write for Sink {
    #[inline]
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.inner.write(buf)
    }

    #[inline]
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.inner.write_all(buf)
    }

    fn write_vectored(&mut self, bufs: &[io::IoSlice<'_>]) -> io::Result<usize> {
        let total: usize = bufs.iter().map(|b| b.len()).sum();
        if total < self.inner.capacity() {
            for piece in bufs {
                self.inner.write_all(piece)?;
            }
            return Ok(total);
        }
        if !self.inner.buffer().is_empty() {
            self.inner.flush()?;
        }
        self.inner.get_mut().write_vectored(bufs)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// How `-o PATH` is written.
enum Destination {
    /// Through a temp file renamed over this path at commit.
    Replace(PathBuf),
    /// In place: a device, FIFO, socket or terminal.
    InPlace,
}

/// Where output for `path` goes: a new file, or a regular file (through a
/// symbolic link, the file it links to), is replaced at commit; anything
/// else that exists is written in place.
fn destination(path: &Path) -> io::Result<Destination> {
    match fs::metadata(path) {
        Ok(meta) if meta.is_file() => {
            // /dev/stdout and /proc/self/fd/N stand for an open stream,
            // even when it is a file (`-o /dev/stdout >> log`): write to
            // it, do not replace it.
            let real = fs::canonicalize(path)?;
            // (/dev/shm is a file system of ordinary files: replaced.)
            let stream = |p: &Path| {
                p.starts_with("/proc") || (p.starts_with("/dev") && !p.starts_with("/dev/shm"))
            };
            if stream(path) || stream(&real) {
                Ok(Destination::InPlace)
            } else {
                Ok(Destination::Replace(real))
            }
        }
        Ok(_) => Ok(Destination::InPlace),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Destination::Replace(path.into())),
        Err(e) => Err(e),
    }
}

/// Gives the new file the permissions of the file it replaces, or the
/// usual 0644 (temp files are created 0600).
#[cfg(unix)]
fn set_permissions(temp: &tempfile::NamedTempFile, path: &Path) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mode = fs::metadata(path)
        .map(|m| m.permissions())
        .unwrap_or_else(|_| fs::Permissions::from_mode(0o644));
    temp.as_file().set_permissions(mode)
}

#[cfg(not(unix))]
fn set_permissions(_: &tempfile::NamedTempFile, _: &Path) -> io::Result<()> {
    Ok(())
}
