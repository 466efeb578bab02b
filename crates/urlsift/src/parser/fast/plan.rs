//! The fast path's plan: what the analysis proved about an input (the
//! components of its serialization and the flags of the cheap rewrites
//! the standard makes for it), and the code that writes the
//! serialization, usually one copy of the input. Kept apart from the
//! analysis so that the rare rewrites take scalars: a plan passed whole
//! to out-of-line code would be kept in memory on the common path.

use crate::components::{Components, SchemeType};
use crate::host::HostKind;

/// What the fast path proved about an input: the components of its
/// serialization and the cheap rewrites that turn the input into it.
#[derive(Clone, Copy)]
pub(crate) struct Plan {
    pub(super) c: Components,
    /// Where the input's authority ends (the serialization's path starts
    /// earlier when a default port is dropped).
    pub(super) auth_end: u32,
    /// The scheme has upper-case letters.
    pub(super) scheme_upper: bool,
    /// The host has upper-case letters.
    pub(super) host_upper: bool,
    /// A port equal to the scheme's default is written (and dropped), or
    /// the authority is not followed by a path ("http://host?q" gets its
    /// root path): the serialization is not one copy of the input.
    pub(super) rebuild: bool,
}

impl Plan {
    /// The plan of a special URL whose scheme ends at `colon`, whose
    /// authority (from `colon + 3`) ends at `auth_end` and has a host up to
    /// `host_end`, then a port if `host_end < auth_end`; `port` is the port
    /// the serialization keeps, `has_path` whether a '/' ends the
    /// authority, and the query and fragment start where given.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn new(
        scheme: SchemeType,
        host_kind: HostKind,
        colon: usize,
        host_end: usize,
        auth_end: usize,
        port: Option<u16>,
        has_path: bool,
        (query, fragment): (Option<usize>, Option<usize>),
    ) -> Plan {
        let host_start = colon + 3;
        // A dropped default port takes its bytes with it; a root path
        // adds one: positions past the authority move by the difference.
        let dropped = if port.is_none() {
            auth_end - host_end
        } else {
            0
        };
        let moved = |p: usize| (p - dropped + usize::from(!has_path)) as u32;
        Plan {
            c: Components {
                scheme_end: colon as u32,
                username_end: host_start as u32,
                host_start: host_start as u32,
                host_end: host_end as u32,
                path_start: (auth_end - dropped) as u32,
                query_start: query.map(moved),
                fragment_start: fragment.map(moved),
                port,
                host_kind: Some(host_kind),
                scheme,
            },
            auth_end: auth_end as u32,
            scheme_upper: false,
            host_upper: false,
            rebuild: dropped != 0 || !has_path,
        }
    }

    /// The components of the serialization.
    #[inline(always)]
    pub(crate) fn components(&self) -> Components {
        self.c
    }

    /// Whether the input is already its own serialization.
    #[inline(always)]
    pub(crate) fn unchanged(&self) -> bool {
        !self.scheme_upper && !self.host_upper && !self.rebuild
    }

    /// [`Plan::write`] for an `out` that holds the input if it is at most
    /// 64 bytes long, else nothing (see [`analyze_appending`]).
    #[inline(always)]
    pub(crate) fn write_over_short(self, input: &str, out: &mut String) -> Components {
        if input.len() > 64 {
            out.push_str(input);
        }
        self.finish(input, out)
    }

    /// Writes the serialization to `out` (cleared by the caller) and
    /// returns its components.
    // Inlined, and the rare rewrites get scalars, not the plan: the
    // components stay in registers and are stored once, into the result
    // (a struct kept in memory and copied whole stalls store forwarding).
    #[inline(always)]
    pub(crate) fn write(self, input: &str, out: &mut String) -> Components {
        // The input as it is, in one copy: the serialization, but for a
        // rare default port or missing root path.
        out.push_str(input);
        self.finish(input, out)
    }

    /// Turns `out`, a copy of `input`, into the serialization and returns
    /// its components.
    #[inline(always)]
    fn finish(self, input: &str, out: &mut String) -> Components {
        let c = self.c;
        if self.rebuild {
            let offsets = (c.host_end, c.path_start, c.port.is_some());
            rewrite(input, out, offsets, self.auth_end);
        }
        if self.scheme_upper {
            lowercase(out, 0, c.scheme_end as usize);
        }
        if self.host_upper {
            lowercase(out, c.host_start as usize, c.host_end as usize);
        }
        c
    }
}

/// Turns `out`, a copy of `input`, into the serialization of an input
/// that drops a default port or gets a root path, given the plan's
/// offsets (scalars: a plan passed whole out of line would be kept in
/// memory on the common path).
// Out of line (13% of jpcert's URLs have no path, most corpora none).
#[inline(never)]
fn rewrite(input: &str, out: &mut String, c: (u32, u32, bool), auth_end: u32) {
    let (host_end, path_start, keeps_port) = c;
    let auth_end = auth_end as usize;
    if path_start as usize == auth_end {
        // No port dropped: only the root path to insert ("http://host" and
        // "http://host?q", common in phishing feeds).
        insert_root(out, auth_end);
    } else {
        let port_end = if keeps_port {
            auth_end
        } else {
            host_end as usize
        };
        rebuild(input, out, port_end, auth_end);
    }
}

/// Inserts the root path '/' at `at` (the end of the authority) of `out`.
#[inline(always)]
fn insert_root(out: &mut String, at: usize) {
    if at == out.len() {
        out.push('/');
    } else {
        out.insert(at, '/');
    }
}

/// Rewrites `out`, a copy of `input`, into the serialization of an input
/// that drops a default port (and may get a root path): the input up to
/// the end of the port it keeps (or of the host), a root path if the
/// authority (ending at `auth_end`) is not followed by one, then the rest.
#[cold]
fn rebuild(input: &str, out: &mut String, port_end: usize, auth_end: usize) {
    out.truncate(port_end);
    if !input[auth_end..].starts_with('/') {
        out.push('/');
    }
    out.push_str(&input[auth_end..]);
}

/// Lowercases `out[start..end]`.
#[cold]
fn lowercase(out: &mut str, start: usize, end: usize) {
    out[start..end].make_ascii_lowercase();
}
