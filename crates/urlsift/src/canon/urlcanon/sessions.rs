//! `aggressive`'s session ids: urlcanon's regular expressions for them,
//! written out.

/// The length of a session id pair at the start of `s` (the query is
/// lower-cased), as `QUERY_SESSIONID_RE`'s alternatives match it, if it
/// ends at `&` or the end.
pub(super) fn session_id_len(s: &[u8]) -> Option<usize> {
    let run = |s: &[u8], ok: &dyn Fn(u8) -> bool| s.iter().take_while(|&&b| ok(b)).count();
    let alnum = |b: u8| b.is_ascii_digit() || b.is_ascii_lowercase();
    let ends = |n: usize| matches!(s.get(n), None | Some(b'&'));
    for (name, min, dollar) in [
        (&b"jsessionid="[..], 10, true),
        (b"sessionid=", 16, false),
        (b"phpsessid=", 16, false),
        (b"sid=", 16, false),
    ] {
        if let Some(rest) = s.strip_prefix(name) {
            let n = run(rest, &|b| alnum(b) || (dollar && b == b'$'));
            return (n >= min && ends(name.len() + n)).then_some(name.len() + n);
        }
    }
    if let Some(rest) = s.strip_prefix(b"aspsessionid") {
        let letters = run(rest, &|b: u8| b.is_ascii_lowercase());
        // `[a-z]{8}=`: exactly eight letters, then `=`.
        if letters >= 8 && rest.get(8) == Some(&b'=') {
            let n = run(&rest[9..], &alnum);
            let len = 12 + 9 + n;
            return (n >= 16 && ends(len)).then_some(len);
        }
        return None;
    }
    if let Some(rest) = s.strip_prefix(b"cfid=") {
        let digits = run(rest, &|b: u8| b.is_ascii_digit());
        let after = &rest[digits..];
        if digits > 0
            && let Some(token) = after.strip_prefix(b"&cftoken=")
        {
            let n = run(token, &|b: u8| alnum(b) || b == b'-');
            let len = 5 + digits + 9 + n;
            return (n > 0 && ends(len)).then_some(len);
        }
    }
    None
}

/// `strip_session_ids_from_query`: `(&|^)ID(&|$)` replaced by the two
/// delimiters, left to right, matches not overlapping.
pub(super) fn strip_query_session_ids(query: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(query.len());
    let mut i = 0;
    while i <= query.len() {
        let lead = if query.get(i) == Some(&b'&') {
            Some(1)
        } else if i == 0 {
            Some(0)
        } else {
            None
        };
        let matched = lead.and_then(|lead| {
            // `&` first, then `^` at the start.
            let try_at = |l: usize| session_id_len(&query[i + l..]).map(|n| (l, n));
            try_at(lead).or_else(|| if lead == 1 && i == 0 { try_at(0) } else { None })
        });
        match matched {
            Some((lead, n)) => {
                out.extend_from_slice(&query[i..i + lead]);
                let end = i + lead + n;
                if query.get(end) == Some(&b'&') {
                    out.push(b'&');
                    i = end + 1;
                } else {
                    i = end;
                }
                if i >= query.len() {
                    break;
                }
            }
            None => {
                if let Some(&b) = query.get(i) {
                    out.push(b);
                }
                i += 1;
            }
        }
    }
    out
}

/// `strip_session_ids_from_path`.
pub(super) fn strip_path_session_ids(path: &mut Vec<u8>) {
    let alnum = |b: &u8| b.is_ascii_digit() || b.is_ascii_lowercase();
    if path.ends_with(b".aspx") && !path.contains(&b'\n') {
        let mut out = Vec::with_capacity(path.len());
        let mut i = 0;
        while i < path.len() {
            if i > 0 && path[i - 1] == b'/' && path[i] == b'(' {
                // `(` 24 alnum `)/`
                let simple = path.len() >= i + 27
                    && path[i + 1..i + 25].iter().all(alnum)
                    && &path[i + 25..i + 27] == b")/";
                if simple {
                    i += 27;
                    continue;
                }
                // `(` then one or more `x(` 24 alnum `)`, then `)/`
                let mut j = i + 1;
                let mut groups = 0;
                while path.len() >= j + 27
                    && path[j].is_ascii_lowercase()
                    && path[j + 1] == b'('
                    && path[j + 2..j + 26].iter().all(alnum)
                    && path[j + 26] == b')'
                {
                    j += 27;
                    groups += 1;
                }
                if groups > 0 && path.get(j..j + 2) == Some(b")/") {
                    i = j + 2;
                    continue;
                }
            }
            out.push(path[i]);
            i += 1;
        }
        *path = out;
    }
    // `;jsessionid=` 32 alnum at the end (or before a final newline).
    let body = path.strip_suffix(b"\n").unwrap_or(path);
    if body.len() >= 44 {
        let at = body.len() - 44;
        if &body[at..at + 12] == b";jsessionid=" && body[at + 12..].iter().all(alnum) {
            path.drain(at..at + 44);
        }
    }
}
