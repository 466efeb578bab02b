//! `html.unescape` as Python 3.11 writes it: numeric and named character
//! references replaced by the HTML standard's rules, legacy names without
//! `;` matched as the longest prefix.

use std::borrow::Cow;

/// The numeric references the HTML standard maps to another character
/// (the "numeric character reference end state" table), as
/// `html._invalid_charrefs` has them.
fn invalid_charref(n: u32) -> Option<char> {
    Some(match n {
        0x00 => '\u{FFFD}',
        0x0D => '\r',
        0x80 => '\u{20AC}',
        0x81 => '\u{81}',
        0x82 => '\u{201A}',
        0x83 => '\u{0192}',
        0x84 => '\u{201E}',
        0x85 => '\u{2026}',
        0x86 => '\u{2020}',
        0x87 => '\u{2021}',
        0x88 => '\u{02C6}',
        0x89 => '\u{2030}',
        0x8A => '\u{0160}',
        0x8B => '\u{2039}',
        0x8C => '\u{0152}',
        0x8D => '\u{8D}',
        0x8E => '\u{017D}',
        0x8F => '\u{8F}',
        0x90 => '\u{90}',
        0x91 => '\u{2018}',
        0x92 => '\u{2019}',
        0x93 => '\u{201C}',
        0x94 => '\u{201D}',
        0x95 => '\u{2022}',
        0x96 => '\u{2013}',
        0x97 => '\u{2014}',
        0x98 => '\u{02DC}',
        0x99 => '\u{2122}',
        0x9A => '\u{0161}',
        0x9B => '\u{203A}',
        0x9C => '\u{0153}',
        0x9D => '\u{9D}',
        0x9E => '\u{017E}',
        0x9F => '\u{0178}',
        _ => return None,
    })
}

/// The code points a numeric reference gives nothing for
/// (`html._invalid_codepoints`): controls, noncharacters.
fn invalid_codepoint(n: u32) -> bool {
    matches!(n, 0x1..=0x8 | 0xB | 0xE..=0x1F | 0x7F..=0x9F | 0xFDD0..=0xFDEF)
        || (n & 0xFFFE == 0xFFFE && n <= 0x10FFFF)
}

/// The replacement of the numeric reference `digits` (base `radix`).
fn numeric(digits: &str, radix: u32, out: &mut String) {
    let n = digits.chars().try_fold(0u32, |n, c| {
        n.checked_mul(radix)?
            .checked_add(c.to_digit(radix).expect("a digit"))
    });
    let Some(n) = n else {
        out.push('\u{FFFD}'); // past U+10FFFF
        return;
    };
    if let Some(c) = invalid_charref(n) {
        out.push(c);
    } else if (0xD800..=0xDFFF).contains(&n) || n > 0x10FFFF {
        out.push('\u{FFFD}');
    } else if !invalid_codepoint(n) {
        out.push(char::from_u32(n).expect("a scalar value"));
    }
}

/// The expansion of the named reference `name` (without `&`), from the
/// HTML standard's table.
fn entity(name: &str) -> Option<&'static str> {
    let mut key = [0u8; htmlize::ENTITY_MAX_LENGTH];
    if name.len() >= key.len() {
        return None;
    }
    key[0] = b'&';
    key[1..=name.len()].copy_from_slice(name.as_bytes());
    let value = htmlize::ENTITIES.get(&key[..=name.len()])?;
    Some(std::str::from_utf8(value).expect("the table is UTF-8"))
}

/// Python's `html.unescape(text)`.
///
/// ```
/// use urlsift::canon::python::html_unescape;
/// assert_eq!(html_unescape("a&amp;b&#x41;&copy&notin;&notit;"), "a&bA©∉¬it;");
/// assert_eq!(html_unescape("&#128;&#0;&#1;x"), "€\u{FFFD}x");
/// ```
pub fn html_unescape(text: &str) -> Cow<'_, str> {
    if !text.contains('&') {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp + 1..];
        let used = reference(after, &mut out);
        if used == 0 {
            out.push('&');
        }
        rest = &after[used..];
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// Replaces the reference at the start of `s` (after its `&`), as
/// `html._charref` reads it, and returns the bytes it took; 0 when there
/// is none (the `&` stays).
fn reference(s: &str, out: &mut String) -> usize {
    let b = s.as_bytes();
    if b.first() == Some(&b'#') {
        let hex = matches!(b.get(1), Some(b'x' | b'X'));
        let start = if hex { 2 } else { 1 };
        let digits = b[start..]
            .iter()
            .take_while(|c| {
                if hex {
                    c.is_ascii_hexdigit()
                } else {
                    c.is_ascii_digit()
                }
            })
            .count();
        if digits == 0 {
            return 0; // `&#` and `&#x` alone: `#` cannot start a name
        }
        let end = start + digits;
        numeric(&s[start..end], if hex { 16 } else { 10 }, out);
        return end + usize::from(b.get(end) == Some(&b';'));
    }
    // A name: 1 to 32 characters, none of `\t\n\f <&#;`, then an optional `;`.
    let mut end = 0;
    for (count, (i, c)) in s.char_indices().enumerate() {
        if count == 32 || matches!(c, '\t' | '\n' | '\x0C' | ' ' | '<' | '&' | '#' | ';') {
            break;
        }
        end = i + c.len_utf8();
    }
    if end == 0 {
        return 0;
    }
    let taken = end + usize::from(b.get(end) == Some(&b';'));
    let name = &s[..taken];
    if let Some(value) = entity(name) {
        out.push_str(value);
        return taken;
    }
    // The longest name of two characters or more that starts it, the rest
    // as it is: only the legacy names without `;` can, all ASCII letters
    // and digits, none longer than BARE_ENTITY_MAX_LENGTH with its `&`.
    let letters = name.bytes().take_while(u8::is_ascii_alphanumeric).count();
    let longest = letters
        .min(htmlize::BARE_ENTITY_MAX_LENGTH - 1)
        .min(name.len() - 1);
    for cut in (2..=longest).rev() {
        if let Some(value) = entity(&name[..cut]) {
            out.push_str(value);
            out.push_str(&name[cut..]);
            return taken;
        }
    }
    out.push('&');
    out.push_str(name);
    taken
}
