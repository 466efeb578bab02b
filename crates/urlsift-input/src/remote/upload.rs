//! Objects written all or nothing: multipart uploads.

use std::io::{self, Read};

use object_store::ObjectStoreExt;

use super::store::{bad, locate, runtime, store_error};
use crate::bucket_scheme;

/// An object being written, all or nothing: a multipart upload begun
/// (which checks the bucket and the permission to write, before a run
/// does any work), its parts sent and the upload completed by
/// [`Upload::finish`]; dropped or [`Upload::abort`]ed unfinished, the
/// upload is aborted and no object appears. `s3://`, `gs://` and `az://`.
///
/// ```no_run
/// use std::io::{Seek, Write};
/// use urlsift_input::remote::Upload;
///
/// let upload = Upload::begin("s3://my-bucket/out/urls.txt")?;
/// let mut spool = tempfile::tempfile()?;
/// spool.write_all(b"https://example.com/\n")?;
/// spool.rewind()?;
/// upload.finish(&mut spool)?;
/// # Ok::<(), std::io::Error>(())
/// ```
pub struct Upload {
    upload: Option<Box<dyn object_store::MultipartUpload>>,
    runtime: &'static tokio::runtime::Runtime,
}

/// The size of an upload's parts (S3 takes up to 10,000: objects up to
/// 160 GB), and how many are sent at once.
const PART: usize = 16 << 20;
const PARTS_IN_FLIGHT: usize = 4;

impl Upload {
    /// Begins the upload of the object `url` names.
    ///
    /// ```
    /// use urlsift_input::remote::Upload;
    ///
    /// let e = Upload::begin("https://example.com/out.txt").err().expect("not s3://");
    /// assert!(e.to_string().contains("s3://"));
    /// ```
    pub fn begin(url: &str) -> io::Result<Upload> {
        if bucket_scheme(url).is_none() {
            return Err(bad(
                "an output object is written to s3://BUCKET/KEY, gs://BUCKET/KEY or az://CONTAINER/KEY \
                 (http(s):// servers are not written to)",
            ));
        }
        let (store, path) = locate(url)?;
        let runtime = runtime()?;
        let upload = runtime
            .block_on(store.put_multipart(&path))
            .map_err(store_error)?;
        Ok(Upload {
            upload: Some(upload),
            runtime,
        })
    }

    /// Sends what `from` holds, from where it stands to its end, as the
    /// object's bytes, and completes the upload: the object appears
    /// whole. On an error the upload is aborted.
    pub fn finish(mut self, from: &mut impl Read) -> io::Result<()> {
        let upload = self.upload.take().expect("an upload not finished");
        self.runtime.block_on(async move {
            let mut writer = object_store::WriteMultipart::new_with_chunk_size(upload, PART);
            let mut buf = vec![0; PART];
            loop {
                let n = match from.read(&mut buf) {
                    Ok(0) => break,
                    Ok(n) => n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => {
                        let _ = writer.abort().await;
                        return Err(e);
                    }
                };
                if let Err(e) = writer.wait_for_capacity(PARTS_IN_FLIGHT).await {
                    let _ = writer.abort().await;
                    return Err(store_error(e));
                }
                writer.write(&buf[..n]);
            }
            // (finish aborts the upload itself when it fails.)
            writer.finish().await.map(|_| ()).map_err(store_error)
        })
    }

    /// Aborts the upload: no object appears, and the parts sent are
    /// removed.
    pub fn abort(mut self) -> io::Result<()> {
        self.abort_now()
    }

    fn abort_now(&mut self) -> io::Result<()> {
        match self.upload.take() {
            Some(mut upload) => self.runtime.block_on(upload.abort()).map_err(store_error),
            None => Ok(()),
        }
    }
}

impl Drop for Upload {
    fn drop(&mut self) {
        let _ = self.abort_now();
    }
}
