//! What a difference is ([`Finding`]), and the input shapes both the
//! WHATWG differential (`diff`) and the by-meaning one (`meaning`) name as
//! reasons.

/// How one line differs between urlsift and a peer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// One of [`crate::diff::CATEGORIES`].
    pub category: &'static str,
    /// A short label for the likely cause.
    pub reason: &'static str,
    /// Bit `i` set: `FIELDS[i]` differs (all zero for a validity difference).
    pub fields: u16,
}

impl Finding {
    /// Whether validity or the href differs (what a disagreement's `lines` counts).
    pub fn changes_href(&self) -> bool {
        self.category == "validity" || self.fields & 1 != 0
    }

    /// For a parser compared by meaning: whether the first tier differs
    /// (validity, host or port, scheme, userinfo).
    pub fn first_tier(&self) -> bool {
        matches!(self.category, "validity" | "host" | "scheme" | "userinfo")
    }
}

/// The input's scheme, lowercased, if it starts with one (after the
/// leading C0 controls and spaces the parser strips).
pub(crate) fn scheme(input: &str) -> Option<String> {
    let s = input.trim_start_matches(|c: char| c <= ' ');
    let end = s.find(':')?;
    let name = &s[..end];
    let mut chars = name.chars();
    (chars.next()?.is_ascii_alphabetic()
        && chars.all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c)))
    .then(|| name.to_ascii_lowercase())
}

/// A special scheme whose `:` is not followed by exactly two slashes
/// (`http:/x`, `http:\\x`, `https:x`, `http:///x`): the standard
/// accepts these forms, many parsers do not.
pub fn odd_special_slashes(input: &str) -> bool {
    let Some(scheme) = scheme(input) else {
        return false;
    };
    if !["http", "https", "ws", "wss", "ftp", "file"].contains(&scheme.as_str()) {
        return false;
    }
    let s = input.trim_start_matches(|c: char| c <= ' ');
    let after = &s[scheme.len() + 1..];
    let slashes = after
        .bytes()
        .take_while(|b| matches!(b, b'/' | b'\\'))
        .count();
    // `file://host/` and `file:///path` are both usual.
    let usual = slashes == 2 || (scheme == "file" && slashes == 3);
    !usual || after[..slashes].contains('\\')
}

/// A host written as numbers: its last label digits or hex (`127.0.0.1`,
/// `0x7f.1`, `2130706433`).
pub fn looks_ipv4(host: &str) -> bool {
    let last = host.trim_end_matches('.').rsplit('.').next().unwrap_or("");
    let b = last.as_bytes();
    !b.is_empty()
        && (b.iter().all(u8::is_ascii_digit) || b[..b.len().min(2)].eq_ignore_ascii_case(b"0x"))
}
