//! An HTTP response as a WARC `response` record holds it: the status
//! line, the headers, and the body with any chunked transfer coding and
//! gzip, deflate or brotli content coding undone, never more than a
//! limit of decoded bytes.
//!
//! ```
//! use urlsift_warc::http::Response;
//!
//! let raw = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=ISO-8859-1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n<p>hi\r\n0\r\n\r\n";
//! let r = Response::parse(raw, 1 << 20).unwrap();
//! assert_eq!(r.status, 200);
//! assert_eq!(r.body.as_ref(), b"<p>hi");
//! assert_eq!(r.charset(), Some("ISO-8859-1"));
//! assert!(r.is_html());
//! ```

use std::borrow::Cow;
use std::io::Read;

/// A parsed response.
#[derive(Debug)]
pub struct Response<'a> {
    /// The status code.
    pub status: u16,
    /// The header fields in order, names as sent (a field whose value is
    /// not UTF-8, obs-text in another encoding, is left out).
    pub headers: Vec<(&'a str, &'a str)>,
    /// The body, decoded.
    pub body: Cow<'a, [u8]>,
    /// A coding the headers name that the stored body turned out not to
    /// have (see [`Notice`]).
    pub notice: Option<Notice>,
}

/// A response whose stored body is not coded as its headers say, read as
/// the trusted archive tools read it: recorders such as pywb, Webrecorder
/// and browser-based crawlers keep `Transfer-Encoding: chunked` (or a
/// `Content-Encoding`) in the record but store the body already decoded.
/// When decoding fails at once and the stored bytes are what the content
/// type says (HTML by the sniffing patterns), those bytes are the body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notice {
    /// `Transfer-Encoding: chunked` over a body that is not chunked.
    ChunkedBodyNotChunked,
    /// A gzip, deflate or br `Content-Encoding` over a body stored decoded.
    ContentCodingNotApplied,
}

impl Notice {
    /// The notice's name in the summary.
    pub fn name(self) -> &'static str {
        match self {
            Notice::ChunkedBodyNotChunked => "chunked-body-not-chunked",
            Notice::ContentCodingNotApplied => "content-coding-not-applied",
        }
    }
}

/// Why a response cannot be read; each is a bad record's reason.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HttpError {
    /// No `HTTP/x.y NNN` status line, or headers without their end.
    BadHttp,
    /// A chunked body whose chunk sizes do not add up.
    BadChunked,
    /// A gzip, deflate or brotli body that does not decode.
    BadContentCoding,
    /// A content coding other than gzip, deflate, br or identity.
    UnknownContentCoding,
    /// The decoded body is larger than the limit.
    TooLarge,
}

impl HttpError {
    /// A short stable key for tables and JSON.
    pub fn key(self) -> &'static str {
        match self {
            HttpError::BadHttp => "bad-http-response",
            HttpError::BadChunked => "bad-chunked-body",
            HttpError::BadContentCoding => "bad-content-coding",
            HttpError::UnknownContentCoding => "unknown-content-coding",
            HttpError::TooLarge => "page-too-large",
        }
    }
}

impl std::fmt::Display for HttpError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            HttpError::BadHttp => "not an HTTP response (status line and headers)",
            HttpError::BadChunked => "chunked body whose chunk sizes do not add up",
            HttpError::BadContentCoding => "gzip, deflate or br body that does not decode",
            HttpError::UnknownContentCoding => {
                "content coding other than gzip, deflate, br or identity"
            }
            HttpError::TooLarge => "page larger than the limit (--max-page-size)",
        })
    }
}

impl<'a> Response<'a> {
    /// Parses `raw`'s status line and headers; the body is left as it is
    /// stored ([`Response::decode`] undoes its codings). The header block
    /// ends at its first empty line, CRLF or LF.
    ///
    /// ```
    /// use urlsift_warc::http::Response;
    ///
    /// let r = Response::parse_head(b"HTTP/1.1 200 OK\nContent-Type: text/html\n\n<p>").unwrap();
    /// assert_eq!((r.status, r.header("content-type"), &r.body[..]), (200, Some("text/html"), &b"<p>"[..]));
    /// // A protocol name other than `HTTP/x.y` that starts `HTTP`, as warcio reads it.
    /// assert_eq!(Response::parse_head(b"HTTPX/1.1 404 Nope\r\n\r\n").unwrap().status, 404);
    /// assert!(Response::parse_head(b"SPDY/3 200 OK\r\n\r\n").is_err());
    /// ```
    pub fn parse_head(raw: &'a [u8]) -> Result<Response<'a>, HttpError> {
        let mut lines = Vec::new();
        let mut at = 0;
        let body_start = loop {
            let end = memchr::memchr(b'\n', &raw[at..]).ok_or(HttpError::BadHttp)? + at;
            let mut line = &raw[at..end];
            // (`\r\r\n` line ends too, as some writers doubled the CR.)
            while let [rest @ .., b'\r'] = line {
                line = rest;
            }
            at = end + 1;
            if line.is_empty() {
                break at;
            }
            lines.push(line);
        };
        let mut lines = lines.into_iter();
        let status_line = lines.next().ok_or(HttpError::BadHttp)?;
        let status_line = std::str::from_utf8(status_line).map_err(|_| HttpError::BadHttp)?;
        let mut parts = status_line.split(' ');
        // Any protocol name that starts `HTTP` (`HTTPX/1.1`, `http/1.1`,
        // which some recorders and test files hold): warcio and pywb read
        // those responses, and so does this.
        let protocol = parts.next().unwrap_or("");
        if protocol.len() < 4 || !protocol.as_bytes()[..4].eq_ignore_ascii_case(b"HTTP") {
            return Err(HttpError::BadHttp);
        }
        let status = parts
            .next()
            .and_then(|s| s.parse::<u16>().ok())
            .ok_or(HttpError::BadHttp)?;
        let headers: Vec<(&str, &str)> = lines
            .filter_map(|l| std::str::from_utf8(l).ok()?.split_once(':'))
            .map(|(n, v)| (n.trim(), v.trim()))
            .collect();
        Ok(Response {
            status,
            headers,
            body: Cow::Borrowed(&raw[body_start..]),
            notice: None,
        })
    }

    /// Parses `raw`, decoding at most `max` body bytes. The header block
    /// ends at its first empty line, CRLF or LF.
    pub fn parse(raw: &'a [u8], max: usize) -> Result<Response<'a>, HttpError> {
        Response::parse_head(raw)?.decode(max)
    }

    /// Undoes the body's transfer and content codings, at most `max`
    /// bytes decoded.
    pub fn decode(self, max: usize) -> Result<Response<'a>, HttpError> {
        let mut response = self;
        // De-chunking broke off at a size line: the rest is as stored.
        let mut fell_back = false;
        if response
            .header("transfer-encoding")
            .is_some_and(|t| t.to_ascii_lowercase().contains("chunked"))
        {
            match dechunk(&response.body) {
                Dechunked::Whole(body) => response.body = Cow::Owned(body),
                Dechunked::FellBack(body) => {
                    response.body = Cow::Owned(body);
                    response.notice = Some(Notice::ChunkedBodyNotChunked);
                    fell_back = true;
                }
                // Stored de-chunked, with a first line that reads as a
                // chunk size: the bytes as they are, if they are a page (or
                // a gzip stream, undone next).
                Dechunked::Bad
                    if stored_as_page(&response, &response.body) || is_gzip(&response.body) =>
                {
                    response.notice = Some(Notice::ChunkedBodyNotChunked);
                    fell_back = true;
                }
                Dechunked::Bad => return Err(HttpError::BadChunked),
            }
        }
        let coding = response
            .header("content-encoding")
            .map(|c| c.trim().to_ascii_lowercase());
        let decoded = match coding.as_deref() {
            // Taken as stored, the bytes must be the page.
            None | Some("" | "identity")
                if fell_back && !stored_as_page(&response, &response.body) =>
            {
                return Err(HttpError::BadChunked);
            }
            None | Some("" | "identity") => {
                if response.body.len() > max {
                    return Err(HttpError::TooLarge);
                }
                return Ok(response);
            }
            // No gzip stream at all: not "a damaged one".
            Some("gzip" | "x-gzip") if !is_gzip(&response.body) => Err(HttpError::BadContentCoding),
            Some("gzip" | "x-gzip") => {
                bounded(flate2::read::MultiGzDecoder::new(&response.body[..]), max)
            }
            Some("deflate") => {
                // Servers send zlib-wrapped and raw deflate both.
                let zlib = bounded(flate2::read::ZlibDecoder::new(&response.body[..]), max);
                match zlib {
                    Err(HttpError::BadContentCoding) => {
                        bounded(flate2::read::DeflateDecoder::new(&response.body[..]), max)
                    }
                    other => other,
                }
            }
            Some("br") => bounded(
                brotli_decompressor::Decompressor::new(&response.body[..], 4096),
                max,
            ),
            Some(_) => return Err(HttpError::UnknownContentCoding),
        };
        match decoded {
            Ok(body) => response.body = Cow::Owned(body),
            // A body stored decoded under its coding's header: a page as
            // it is (a failure mid-stream stays damage).
            Err(HttpError::BadContentCoding) if stored_as_page(&response, &response.body) => {
                if response.body.len() > max {
                    return Err(HttpError::TooLarge);
                }
                response
                    .notice
                    .get_or_insert(Notice::ContentCodingNotApplied);
            }
            // Neither chunked nor coded as the headers say: the de-chunking
            // failed first.
            Err(HttpError::BadContentCoding) if fell_back => return Err(HttpError::BadChunked),
            Err(e) => return Err(e),
        }
        Ok(response)
    }

    /// The first header field named `name` (any case).
    pub fn header(&self, name: &str) -> Option<&'a str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|&(_, v)| v)
    }

    /// The `charset` parameter of `Content-Type`.
    pub fn charset(&self) -> Option<&'a str> {
        charset(self.header("content-type")?)
    }

    /// Whether the headers say the body is something else than HTML (a
    /// `Content-Type` that is not `text/html` nor `application/xhtml+xml`):
    /// known before the body is decoded.
    pub fn is_declared_not_html(&self) -> bool {
        self.header("content-type").is_some() && !self.is_html()
    }

    /// Whether the body is HTML: by `Content-Type` (`text/html`,
    /// `application/xhtml+xml`), or, without one, by its first bytes.
    pub fn is_html(&self) -> bool {
        self.declared_html()
            .unwrap_or_else(|| looks_like_html(&self.body))
    }

    /// Whether `Content-Type` says HTML; `None` without one.
    fn declared_html(&self) -> Option<bool> {
        let mime = self.header("content-type")?.split(';').next().unwrap_or("");
        let mime = mime.trim().to_ascii_lowercase();
        Some(mime == "text/html" || mime == "application/xhtml+xml")
    }
}

/// The `charset` parameter of a `Content-Type` value.
///
/// ```
/// assert_eq!(urlsift_warc::http::charset("text/html; Charset=\"utf-8\""), Some("utf-8"));
/// assert_eq!(urlsift_warc::http::charset("text/html"), None);
/// ```
pub fn charset(content_type: &str) -> Option<&str> {
    content_type.split(';').skip(1).find_map(|p| {
        let (k, v) = p.split_once('=')?;
        k.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| v.trim().trim_matches('"'))
            .filter(|v| !v.is_empty())
    })
}

/// Whether `body` starts (after whitespace) like an HTML document, as the
/// MIME sniffing standard's HTML patterns do.
///
/// ```
/// assert!(urlsift_warc::http::looks_like_html(b"\n <!DOCTYPE html><p>"));
/// assert!(!urlsift_warc::http::looks_like_html(b"{\"a\": 1}"));
/// ```
pub fn looks_like_html(body: &[u8]) -> bool {
    let start = body
        .iter()
        .position(|c| !c.is_ascii_whitespace())
        .unwrap_or(body.len());
    let b = &body[start..];
    const TAGS: [&[u8]; 17] = [
        b"<!doctype html",
        b"<html",
        b"<head",
        b"<script",
        b"<iframe",
        b"<h1",
        b"<div",
        b"<font",
        b"<table",
        b"<a",
        b"<style",
        b"<title",
        b"<b",
        b"<body",
        b"<br",
        b"<p",
        b"<!--",
    ];
    TAGS.iter().any(|t| {
        b.len() > t.len()
            && b[..t.len()].eq_ignore_ascii_case(t)
            && (t == b"<!--" || matches!(b[t.len()], b' ' | b'>'))
    })
}

/// Whether `body`, as stored, is what the response's content type says:
/// HTML (or a body without a content type) that sniffs as HTML.
fn stored_as_page(response: &Response<'_>, body: &[u8]) -> bool {
    response.declared_html().unwrap_or(true) && looks_like_html(body)
}

/// Whether `body` starts as a gzip member does.
fn is_gzip(body: &[u8]) -> bool {
    body.starts_with(&[0x1f, 0x8b])
}

/// What de-chunking a body gave.
enum Dechunked {
    /// The chunks' data, to the last chunk.
    Whole(Vec<u8>),
    /// A chunk-size line did not parse: the chunks' data before it, then
    /// the bytes from that line on as they are stored (all of them when
    /// it is the first line), as warcio reads a body that recorders
    /// stored de-chunked under `Transfer-Encoding: chunked`.
    FellBack(Vec<u8>),
    /// The body ends inside a chunk or before the last chunk.
    Bad,
}

/// A chunked body's data (see [`Dechunked`]).
fn dechunk(mut body: &[u8]) -> Dechunked {
    let mut out = Vec::with_capacity(body.len());
    loop {
        let line_end = memchr::memchr(b'\n', body);
        let size = line_end.and_then(|end| {
            let line = std::str::from_utf8(&body[..end]).ok()?;
            let size = line.split(';').next().unwrap_or("").trim();
            usize::from_str_radix(size, 16).ok()
        });
        let (Some(end), Some(size)) = (line_end, size) else {
            if body.is_empty() {
                // (No last chunk: the body ended between chunks.)
                return Dechunked::Bad;
            }
            out.extend_from_slice(body);
            return Dechunked::FellBack(out);
        };
        body = &body[end + 1..];
        if size == 0 {
            return Dechunked::Whole(out);
        }
        if body.len() < size {
            return Dechunked::Bad;
        }
        out.extend_from_slice(&body[..size]);
        body = &body[size..];
        body = body
            .strip_prefix(b"\r\n")
            .or_else(|| body.strip_prefix(b"\n"))
            .unwrap_or(body);
    }
}

/// All of `reader`'s bytes, if they are at most `max`.
fn bounded(reader: impl Read, max: usize) -> Result<Vec<u8>, HttpError> {
    let mut out = Vec::new();
    reader
        .take(max as u64 + 1)
        .read_to_end(&mut out)
        .map_err(|_| HttpError::BadContentCoding)?;
    if out.len() > max {
        return Err(HttpError::TooLarge);
    }
    Ok(out)
}
