//! `--parsers java`: `java.net.URI`, in a child process (the machine's
//! `java`, running a one-file program from source, Java 11 or later)
//! speaking `child.rs`'s protocol. Its parts are what a Java program
//! reads: `getScheme`, `getRawUserInfo` (split at its first `:` into user
//! and password), `getHost` (null for a registry-based authority such as
//! `0x7f.1` or `bücher.de`: a Java program sees no host), `getPort` (-1:
//! none), `getRawPath`, `getRawQuery`, `getRawFragment`; a
//! `URISyntaxException` means invalid. A timed pass makes each `URI` and
//! counts the UTF-8 bytes of its `toString()`.

use std::path::{Path, PathBuf};

use crate::Error;
use crate::child::{Child, failed, on_path};
use crate::engines::{Engine, Parsed, Round};
use crate::python::parts_answer;

/// The child's program (`UrlsiftJava.java`).
const SOURCE: &str = r#"
import java.io.*;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;

public class UrlsiftJava {
    /** A JSON string literal's text (the escapes serde_json writes). */
    static String unjson(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 1; i < s.length() - 1; i++) {
            char c = s.charAt(i);
            if (c != '\\') { b.append(c); continue; }
            char e = s.charAt(++i);
            switch (e) {
                case 'n': b.append('\n'); break;
                case 'r': b.append('\r'); break;
                case 't': b.append('\t'); break;
                case 'b': b.append('\b'); break;
                case 'f': b.append('\f'); break;
                case 'u': b.append((char) Integer.parseInt(s.substring(i + 1, i + 5), 16)); i += 4; break;
                default: b.append(e);
            }
        }
        return b.toString();
    }

    static void json(StringBuilder b, String s) {
        if (s == null) { b.append("null"); return; }
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') b.append('\\').append(c);
            else if (c < 0x20 || (c >= 0xd800 && c <= 0xdfff)) b.append(String.format("\\u%04x", (int) c));
            else b.append(c);
        }
        b.append('"');
    }

    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8), 1 << 16);
        PrintStream out = new PrintStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out), 1 << 16), false, "UTF-8");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"count\"\\s*:\\s*(\\d+)").matcher(in.readLine());
        int count = m.find() ? Integer.parseInt(m.group(1)) : 0;
        String[] urls = new String[count];
        for (int i = 0; i < count; i++) urls[i] = unjson(in.readLine());
        StringBuilder b = new StringBuilder();
        b.append("{\"ready\":true,\"version\":");
        json(b, System.getProperty("java.version"));
        b.append(",\"error\":null,\"loadError\":null}");
        out.println(b); out.flush();
        String command;
        while ((command = in.readLine()) != null) {
            if (command.equals("diff")) {
                for (String s : urls) {
                    b.setLength(0);
                    try {
                        URI u = new URI(s);
                        String info = u.getRawUserInfo(), user = info, password = null;
                        if (info != null && info.indexOf(':') >= 0) {
                            user = info.substring(0, info.indexOf(':'));
                            password = info.substring(info.indexOf(':') + 1);
                        }
                        String[] parts = { u.getScheme(), user, password, u.getHost(),
                            u.getPort() < 0 ? null : Integer.toString(u.getPort()),
                            u.getRawPath(), u.getRawQuery(), u.getRawFragment(), u.toString() };
                        b.append("{\"parts\":[");
                        for (int i = 0; i < parts.length; i++) { if (i > 0) b.append(','); json(b, parts[i]); }
                        b.append("]}");
                    } catch (URISyntaxException e) {
                        b.append("{\"error\":"); json(b, e.getMessage()); b.append('}');
                    }
                    out.println(b);
                }
                out.flush();
            } else if (command.equals("round")) {
                long valid = 0, size = 0;
                long t0 = System.nanoTime();
                for (String s : urls) {
                    try {
                        URI u = new URI(s);
                        size += u.toString().getBytes(StandardCharsets.UTF_8).length;
                        valid++;
                    } catch (URISyntaxException e) { }
                }
                long ns = System.nanoTime() - t0;
                out.println("{\"ns\":" + ns + ",\"valid\":" + valid + ",\"bytes\":" + size + "}");
                out.flush();
            } else if (command.equals("quit")) {
                break;
            }
        }
        out.flush();
    }
}
"#;

/// `java` on PATH, if any.
pub fn find() -> Option<PathBuf> {
    on_path("java")
}

/// The running child, and the directory its source file is in (removed
/// when it ends).
pub struct Java {
    child: Child,
    _source: tempfile::TempDir,
}

impl Java {
    /// Starts `program` on the source, with the URLs.
    pub fn start(program: &Path, urls: &[&str]) -> Result<Java, Error> {
        let dir = tempfile::Builder::new()
            .prefix("urlsift-java-")
            .tempdir()
            .map_err(|e| {
                failed(
                    "java",
                    format!("cannot make a directory for its program: {e}"),
                )
            })?;
        let file = dir.path().join("UrlsiftJava.java");
        std::fs::write(&file, SOURCE)
            .map_err(|e| failed("java", format!("cannot write {}: {e}", file.display())))?;
        let file = file.to_string_lossy().into_owned();
        let header = serde_json::json!({ "base": null });
        let (child, _) = Child::start(
            "java",
            program,
            &["-Dfile.encoding=UTF-8", &file],
            header,
            urls,
        )?;
        Ok(Java {
            child,
            _source: dir,
        })
    }

    /// The version the child reported.
    pub fn version(&self) -> &str {
        &self.child.version
    }
}

impl Engine for Java {
    fn parse(&mut self, index: usize, _: &str) -> Result<Parsed, Error> {
        let answer = self.child.result(index)?;
        parts_answer("java", &answer, self.child.last_line())
    }

    fn round(&mut self, _: &[&str], _: Option<&rayon::ThreadPool>) -> Result<Round, Error> {
        self.child.round()
    }
}
