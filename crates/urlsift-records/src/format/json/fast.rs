//! The fast path for JSON lines: one pass over the line that proves it is
//! one valid JSON object and finds the URL field, where `serde_json` would
//! build its visitor machinery per value. It declines (`None`) on anything
//! it does not handle (a `\u` escape, a key with escapes, a top-level value
//! that is not an object, deep nesting) and on anything invalid, and
//! `serde_json` decides: the fast path never rejects, and what it accepts,
//! `serde_json` accepts with the same field (the tests hold it to that).

use super::path::{Hit, Path, decode_string};
use crate::reason::Reason;
use urlsift_simd::{ByteSet, Classes, Groups, Kernel, Runtime};

/// Nesting deeper than this is left to `serde_json` (whose own limit is 128).
const MAX_DEPTH: u32 = 64;

/// Finds `path` in `line` if the line is a JSON object this scan can prove
/// valid; `None` to decline.
pub fn find<'a>(path: &Path, line: &'a str) -> Option<Result<Hit<'a>, Reason>> {
    let b = line.as_bytes();
    let mut s = Scan {
        b,
        i: 0,
        block: usize::MAX,
        stops: 0,
    };
    s.ws();
    if s.peek()? != b'{' {
        return None;
    }
    let found = s.object(Some((path.keys(), path.any_case())), 0)?;
    let close = s.i - 1;
    s.ws();
    if s.i != b.len() {
        return None;
    }
    let Some((start, end)) = found else {
        return Some(Err(Reason::MissingField));
    };
    let value = match decode_string(&line[start..end]) {
        Ok(v) => v,
        Err(r) => return Some(Err(r)),
    };
    Some(Ok(Hit {
        value,
        span: (start, end),
        close,
    }))
}

/// The bytes that end a run of string contents: the closing quote, an
/// escape, and the control characters a string may not hold; found 64
/// bytes at a time by the SIMD classifier.
struct Stops;

impl Classes for Stops {
    const SET: ByteSet = ByteSet::outside_range_or(0x20, 0xFF, b"\"\\");
    const GROUPS: Groups = Groups::new(&[]);
    const RANGE: (u8, u8) = (0, 255);
}

struct Scan<'a> {
    b: &'a [u8],
    i: usize,
    /// The stop bytes of the 64-byte block at `block` (`usize::MAX`: none
    /// computed yet).
    block: usize,
    stops: u64,
}

/// What to look for in an object: the path's keys, any letter case or not.
type Want<'p> = Option<(&'p [String], bool)>;

impl Scan<'_> {
    #[inline(always)]
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    #[inline(always)]
    fn ws(&mut self) {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.i += 1;
        }
    }

    #[inline(always)]
    fn eat(&mut self, c: u8) -> Option<()> {
        (self.peek()? == c).then(|| self.i += 1)
    }

    /// An object at `i` (its `{`): the span of the value `want` names in
    /// it (the last, if repeated), `Some(None)` if none; `None` to decline.
    fn object(&mut self, want: Want<'_>, depth: u32) -> Option<Option<(usize, usize)>> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.eat(b'{')?;
        self.ws();
        let mut found = None;
        if self.peek()? == b'}' {
            self.i += 1;
            return Some(found);
        }
        loop {
            let (ks, ke, escaped) = self.string()?;
            if escaped {
                return None;
            }
            let key = &self.b[ks..ke];
            self.ws();
            self.eat(b':')?;
            self.ws();
            let hit = want.filter(|(keys, any_case)| {
                let k = keys[0].as_bytes();
                if *any_case {
                    key.eq_ignore_ascii_case(k)
                } else {
                    key == k
                }
            });
            match hit {
                Some((keys, _)) if keys.len() == 1 => {
                    let start = self.i;
                    self.value(depth)?;
                    found = Some((start, self.i));
                }
                Some((keys, any_case)) => {
                    // Below this key: only an object holds the rest of
                    // the path (anything else holds nothing).
                    found = if self.peek()? == b'{' {
                        self.object(Some((&keys[1..], any_case)), depth + 1)?
                    } else {
                        self.value(depth)?;
                        None
                    };
                }
                None => self.value(depth)?,
            }
            self.ws();
            match self.peek()? {
                b',' => {
                    self.i += 1;
                    self.ws();
                }
                b'}' => {
                    self.i += 1;
                    return Some(found);
                }
                _ => return None,
            }
        }
    }

    /// Any value at `i`.
    fn value(&mut self, depth: u32) -> Option<()> {
        match self.peek()? {
            b'"' => self.string().map(drop),
            b'{' => self.object(None, depth + 1).map(drop),
            b'[' => self.array(depth + 1),
            b't' => self.literal(b"true"),
            b'f' => self.literal(b"false"),
            b'n' => self.literal(b"null"),
            b'-' | b'0'..=b'9' => self.number(),
            _ => None,
        }
    }

    fn array(&mut self, depth: u32) -> Option<()> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.eat(b'[')?;
        self.ws();
        if self.peek()? == b']' {
            self.i += 1;
            return Some(());
        }
        loop {
            self.value(depth)?;
            self.ws();
            match self.peek()? {
                b',' => {
                    self.i += 1;
                    self.ws();
                }
                b']' => {
                    self.i += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    fn literal(&mut self, word: &[u8]) -> Option<()> {
        self.b[self.i..]
            .starts_with(word)
            .then(|| self.i += word.len())
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    fn number(&mut self) -> Option<()> {
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        match self.peek()? {
            b'0' => self.i += 1,
            b'1'..=b'9' => self.digits(),
            _ => return None,
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            self.peek().filter(u8::is_ascii_digit)?;
            self.digits();
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.i += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.i += 1;
            }
            self.peek().filter(u8::is_ascii_digit)?;
            self.digits();
        }
        Some(())
    }

    #[inline(always)]
    fn digits(&mut self) {
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
    }

    /// The first stop byte at or after `from`.
    #[inline(always)]
    fn next_stop(&mut self, from: usize) -> Option<usize> {
        let mut block = from & !63;
        let mut skip = from - block;
        loop {
            if block >= self.b.len() {
                return None;
            }
            if self.block != block {
                let end = (block + 64).min(self.b.len());
                self.stops = Runtime.block_masks::<Stops>(&self.b[block..end]).in_set;
                self.block = block;
            }
            let bits = self.stops >> skip << skip;
            if bits != 0 {
                return Some(block + bits.trailing_zeros() as usize);
            }
            block += 64;
            skip = 0;
        }
    }

    /// A string at `i` (its opening quote): the span of its contents, and
    /// whether it holds escapes. Escapes other than `\u` are checked; a
    /// control character or a `\u` escape declines.
    #[inline]
    fn string(&mut self) -> Option<(usize, usize, bool)> {
        self.eat(b'"')?;
        let start = self.i;
        let mut escaped = false;
        loop {
            self.i = self.next_stop(self.i)?;
            match self.b[self.i] {
                b'"' => {
                    self.i += 1;
                    return Some((start, self.i - 1, escaped));
                }
                b'\\' => escaped = true,
                _ => return None,
            }
            match self.b.get(self.i + 1)? {
                b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => self.i += 2,
                _ => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super as json;
    use super::*;
    use crate::format::Found;
    use proptest::prelude::*;

    /// Lines built from JSON pieces, valid and not: objects, arrays,
    /// strings with escapes, numbers, literals, stray bytes.
    fn jsonish() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            Just("{"),
            Just("}"),
            Just("["),
            Just("]"),
            Just(","),
            Just(":"),
            Just(" "),
            Just("\"url\""),
            Just("\"URL\""),
            Just("\"a\""),
            Just("\"request\""),
            Just("\"http://x.org/\""),
            Just("\"http:\\/\\/y.org\\/\""),
            Just("\"\\u0041\""),
            Just("\"\\q\""),
            Just("\"tab\there\""),
            Just("\""),
            Just("\\"),
            Just("1"),
            Just("-0.5e+3"),
            Just("01"),
            Just("1."),
            Just("true"),
            Just("nul"),
            Just("null"),
            Just("\"\""),
            Just("\"u\\\"rl\""),
            Just("\t"),
            Just("\n"),
            Just("é"),
        ];
        proptest::collection::vec(piece, 0..24).prop_map(|v| v.concat())
    }

    /// Mostly-valid objects, so that acceptance is exercised too.
    fn objects() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            Just("\"http://x.org/a\"".to_string()),
            Just("\"HTTP:\\/\\/Y.org\"".to_string()),
            Just("12.5e-1".to_string()),
            Just("null".to_string()),
            Just("[1, \"a\", {\"url\": \"http://z/\"}]".to_string()),
            Just("\"\"".to_string()),
        ];
        let key = prop_oneof![Just("url"), Just("Url"), Just("request"), Just("other")];
        let member = (key, leaf).prop_map(|(k, v)| format!("\"{k}\" : {v}"));
        let inner = proptest::collection::vec(member.clone(), 0..4)
            .prop_map(|m| format!("{{{}}}", m.join(",")));
        let nested = (Just("request"), inner).prop_map(|(k, v)| format!("\"{k}\":{v}"));
        proptest::collection::vec(prop_oneof![member, nested], 0..5)
            .prop_map(|m| format!(" {{{}}} ", m.join(", ")))
    }

    fn same(line: &str, path: &json::Path) -> Result<(), TestCaseError> {
        let slow = json::find_with_serde(path, line);
        if let Some(fast) = find(path, line) {
            let show = |r: &Result<Hit<'_>, Reason>| match r {
                Ok(h) => format!("{:?} {:?} {}", value(&h.value), h.span, h.close),
                Err(e) => format!("err {}", e.key()),
            };
            prop_assert_eq!(show(&fast), show(&slow), "{:?}", line);
        }
        Ok(())
    }

    fn value(f: &Found<'_>) -> String {
        match f {
            Found::Url(u) => u.to_string(),
            Found::Empty => "<empty>".into(),
            Found::Bad(r) => format!("<{}>", r.key()),
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(5000))]

        #[test]
        fn fast_path_agrees_with_serde_json_on_anything(line in jsonish()) {
            same(&line, &json::Path::new(None))?;
            same(&line, &json::Path::new(Some("request.url")))?;
        }

        #[test]
        fn fast_path_agrees_with_serde_json_on_objects(line in objects()) {
            same(&line, &json::Path::new(None))?;
            same(&line, &json::Path::new(Some("request.url")))?;
            same(&line, &json::Path::new(Some("url")))?;
            // Objects of this shape are all valid: the fast path takes them.
            prop_assert!(find(&json::Path::new(None), &line).is_some(), "{:?}", line);
        }
    }

    #[test]
    fn declines_what_it_does_not_handle() {
        let d = json::Path::new(None);
        assert!(find(&d, r#"{"url":"\u0041"}"#).is_none());
        assert!(find(&d, r#"{"u\"rl":"x"}"#).is_none());
        assert!(find(&d, r#"[1]"#).is_none());
        assert!(find(&d, r#"{"url":"a""#).is_none());
        assert!(find(&d, r#"{"url":"a",}"#).is_none());
        assert!(find(&d, "{\"url\":\"a\tb\"}").is_none());
        let deep = format!("{{\"a\":{}1{}}}", "[".repeat(100), "]".repeat(100));
        assert!(find(&d, &deep).is_none());
        assert!(find(&d, r#"{"url":"http://a/","n":-0.5E+10}"#).is_some());
    }
}
