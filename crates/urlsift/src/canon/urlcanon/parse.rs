//! urlcanon's lenient parser (`parse_url`): every byte of the text in
//! one of the parts, as its regular expressions' backtracking decides;
//! and its reading of IPv4 numbers.

pub(super) const SPECIAL: [(&[u8], Option<&[u8]>); 7] = [
    (b"ftp", Some(b"21")),
    (b"gopher", Some(b"70")),
    (b"http", Some(b"80")),
    (b"https", Some(b"443")),
    (b"ws", Some(b"80")),
    (b"wss", Some(b"443")),
    (b"file", None),
];

pub(super) fn special(scheme: &[u8]) -> Option<Option<&'static [u8]>> {
    SPECIAL
        .iter()
        .find(|(s, _)| *s == scheme)
        .map(|(_, port)| *port)
}

/// urlcanon's `ParsedUrl`: every byte of the text in one of its parts.
#[derive(Default)]
pub(super) struct Parsed {
    pub(super) scheme: Vec<u8>,
    pub(super) colon_after_scheme: Vec<u8>,
    pub(super) slashes: Vec<u8>,
    pub(super) username: Vec<u8>,
    pub(super) colon_before_password: Vec<u8>,
    pub(super) password: Vec<u8>,
    pub(super) at_sign: Vec<u8>,
    pub(super) host: Vec<u8>,
    pub(super) colon_before_port: Vec<u8>,
    pub(super) port: Vec<u8>,
    pub(super) path: Vec<u8>,
    pub(super) question_mark: Vec<u8>,
    pub(super) query: Vec<u8>,
    pub(super) hash_sign: Vec<u8>,
    pub(super) fragment: Vec<u8>,
}

pub(super) fn is_tab_or_newline(b: &u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\r')
}

pub(super) fn without_tabs(b: &[u8]) -> Vec<u8> {
    b.iter()
        .copied()
        .filter(|b| !is_tab_or_newline(b))
        .collect()
}

impl Parsed {
    pub(super) fn is_special(&self) -> bool {
        special(&self.scheme).is_some()
    }

    pub(super) fn authority_empty(&self) -> bool {
        self.username.is_empty()
            && self.colon_before_password.is_empty()
            && self.password.is_empty()
            && self.at_sign.is_empty()
            && self.host.is_empty()
            && self.colon_before_port.is_empty()
            && self.port.is_empty()
    }

    pub(super) fn text(&self) -> Vec<u8> {
        [
            &self.scheme[..],
            &self.colon_after_scheme,
            &self.slashes,
            &self.username,
            &self.colon_before_password,
            &self.password,
            &self.at_sign,
            &self.host,
            &self.colon_before_port,
            &self.port,
            &self.path,
            &self.question_mark,
            &self.query,
            &self.hash_sign,
            &self.fragment,
        ]
        .concat()
    }
}

/// `parse_url`, less the leading and trailing junk (C0 controls and
/// spaces), which every profile here removes first.
pub(super) fn parse(text: &[u8]) -> Parsed {
    let start = text.iter().position(|&b| b > b' ').unwrap_or(text.len());
    let end = text
        .iter()
        .rposition(|&b| b > b' ')
        .map_or(start, |e| e + 1);
    let text = &text[start..end.max(start)];
    let mut url = Parsed::default();
    let mut rest = text;
    if text.first().is_some_and(u8::is_ascii_alphabetic)
        && let Some(colon) = memchr::memchr(b':', text)
    {
        url.scheme = text[..colon].to_vec();
        url.colon_after_scheme = b":".to_vec();
        rest = &text[colon + 1..];
    }
    let pathish_end = memchr::memchr2(b'?', b'#', rest).unwrap_or(rest.len());
    let (pathish, mut after) = rest.split_at(pathish_end);
    if after.first() == Some(&b'?') {
        let hash = memchr::memchr(b'#', after).unwrap_or(after.len());
        url.question_mark = b"?".to_vec();
        url.query = after[1..hash].to_vec();
        after = &after[hash..];
    }
    if after.first() == Some(&b'#') {
        url.hash_sign = b"#".to_vec();
        url.fragment = after[1..].to_vec();
    }
    if !pathish.is_empty() {
        parse_pathish(&mut url, pathish);
    }
    url
}

/// Leading `[\r\n\t]*` then `n` times a slash (`/`, or `\` too when
/// `backslash`) followed by `[\r\n\t]*`: its length, if there.
pub(super) fn two_slashes_prefix(pathish: &[u8], backslash: bool) -> Option<usize> {
    let mut i = pathish.iter().take_while(|b| is_tab_or_newline(b)).count();
    for _ in 0..2 {
        match pathish.get(i) {
            Some(b'/') => {}
            Some(b'\\') if backslash => {}
            _ => return None,
        }
        i += 1;
        i += pathish[i..]
            .iter()
            .take_while(|b| is_tab_or_newline(b))
            .count();
    }
    Some(i)
}

/// `parse_pathish`: the slashes, authority and path after the scheme.
pub(super) fn parse_pathish(url: &mut Parsed, pathish: &[u8]) {
    let scheme = without_tabs(&url.scheme).to_ascii_lowercase();
    let is_slash = |b: &u8, backslash: bool| *b == b'/' || (backslash && *b == b'\\');
    if scheme == b"file" {
        match two_slashes_prefix(pathish, true) {
            Some(s) => {
                let host_end = pathish[s..]
                    .iter()
                    .position(|b| is_slash(b, true))
                    .map_or(pathish.len(), |e| e + s);
                url.slashes = pathish[..s].to_vec();
                url.host = pathish[s..host_end].to_vec();
                url.path = pathish[host_end..].to_vec();
            }
            None => url.path = pathish.to_vec(),
        }
        return;
    }
    let backslash = special(&scheme).is_some();
    let slashes = if backslash {
        pathish
            .iter()
            .take_while(|b| matches!(b, b'/' | b'\\' | b'\r' | b'\n' | b'\t'))
            .count()
    } else {
        match two_slashes_prefix(pathish, false) {
            Some(s) => s,
            None => {
                url.path = pathish.to_vec();
                return;
            }
        }
    };
    let authority_end = pathish[slashes..]
        .iter()
        .position(|b| is_slash(b, backslash))
        .map_or(pathish.len(), |e| e + slashes);
    url.slashes = pathish[..slashes].to_vec();
    url.path = pathish[authority_end..].to_vec();
    parse_authority(url, &pathish[slashes..authority_end]);
}

/// `AUTHORITY_REGEX`, as its backtracking decides.
pub(super) fn parse_authority(url: &mut Parsed, authority: &[u8]) {
    let colon = memchr::memchr(b':', authority);
    let rest = match memchr::memrchr(b'@', authority) {
        None => {
            url.username.clear();
            url.colon_before_password.clear();
            url.password.clear();
            url.at_sign.clear();
            authority
        }
        Some(at) => {
            match colon {
                Some(c) if c < at => {
                    url.username = authority[..c].to_vec();
                    url.colon_before_password = b":".to_vec();
                    url.password = authority[c + 1..at].to_vec();
                }
                _ => {
                    url.username = authority[..at].to_vec();
                    url.colon_before_password.clear();
                    url.password.clear();
                }
            }
            url.at_sign = b"@".to_vec();
            &authority[at + 1..]
        }
    };
    // `\[[^]]*\]` when it ends the host (at the end or before `:`), else
    // everything up to the first `:`.
    let bracketed = match (rest.first(), memchr::memchr(b']', rest)) {
        (Some(b'['), Some(close)) if matches!(rest.get(close + 1), None | Some(b':')) => {
            Some(close + 1)
        }
        _ => None,
    };
    let host_end = bracketed.unwrap_or_else(|| memchr::memchr(b':', rest).unwrap_or(rest.len()));
    url.host = rest[..host_end].to_vec();
    if host_end < rest.len() {
        url.colon_before_port = b":".to_vec();
        url.port = rest[host_end + 1..].to_vec();
    } else {
        url.colon_before_port.clear();
        url.port.clear();
    }
}

/// Python's `int(text, base)` on bytes (ASCII whitespace around, a sign,
/// `_` between digits, the base's own prefix allowed), or `None`.
pub(super) fn py_int(text: &[u8], base: u32) -> Option<i128> {
    let t = text.trim_ascii();
    let (negative, t) = match t.first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let prefix: &[u8] = match base {
        16 => b"0x",
        8 => b"0o",
        _ => b"",
    };
    let t = if !prefix.is_empty() && t.len() >= 2 && t[..2].eq_ignore_ascii_case(prefix) {
        // The prefix may be followed by `_`.
        let rest = &t[2..];
        rest.strip_prefix(b"_").unwrap_or(rest)
    } else {
        t
    };
    if t.is_empty() || t.starts_with(b"_") || t.ends_with(b"_") || t.windows(2).any(|w| w == b"__")
    {
        return None;
    }
    let mut value: i128 = 0;
    for &b in t.iter().filter(|&&b| b != b'_') {
        let digit = (b as char).to_digit(base)?;
        value = value
            .checked_mul(i128::from(base))?
            .checked_add(i128::from(digit))?;
    }
    Some(if negative { -value } else { value })
}

/// `parse_ipv4`: the host as a number in the URL Standard's notations (as
/// urlcanon reads them), or `None`.
pub(super) fn parse_ipv4(host: &[u8]) -> Option<i128> {
    let num = |s: &[u8]| -> Option<i128> {
        if s.len() >= 2 && (s[..2] == *b"0x" || s[..2] == *b"0X") {
            if s.len() >= 3 {
                py_int(&s[2..], 16)
            } else {
                Some(0)
            }
        } else if s.len() >= 2 && s[0] == b'0' {
            py_int(&s[1..], 8)
        } else if s.is_empty() {
            Some(0)
        } else {
            py_int(s, 10)
        }
    };
    let mut parts: Vec<&[u8]> = host.split(|&b| b == b'.').collect();
    if parts.last() == Some(&&b""[..]) {
        parts.pop();
    }
    let ip4 = match parts[..] {
        [a] => num(a)?,
        [a, b] => {
            let b = num(b)?;
            if b >= 1 << 24 {
                return None;
            }
            num(a)? * (1 << 24) + b
        }
        [a, b, c] => {
            let b = num(b)?;
            if b >= 1 << 8 {
                return None;
            }
            let c = num(c)?;
            if c >= 1 << 16 {
                return None;
            }
            num(a)? * (1 << 24) + b * (1 << 16) + c
        }
        [a, b, c, d] => {
            let (b, c, d) = (num(b)?, num(c)?, num(d)?);
            if b >= 1 << 8 || c >= 1 << 8 || d >= 1 << 8 {
                return None;
            }
            num(a)? * (1 << 24) + b * (1 << 16) + c * (1 << 8) + d
        }
        _ => return None,
    };
    (ip4 < 1 << 32).then_some(ip4)
}
