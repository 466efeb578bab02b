//! The standard's [encoding callbacks](https://urlpattern.spec.whatwg.org/#canon-encoding-callbacks)
//! (each component's fixed text canonicalized as the URL parser would) and
//! [URLPatternInit processing](https://urlpattern.spec.whatwg.org/#canon-processing-for-init).

use super::{Init, PatternError};
use crate::components::SchemeType;
use crate::error::NoReporter;
use crate::parser::remove_tab_and_newline;
use crate::percent::{self, C0_CONTROL, FRAGMENT, SPECIAL_QUERY, USERINFO};
use crate::url::Url;

/// Whether [`process_init`] reads a pattern (kept as written) or a URL's
/// parts (canonicalized).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum InitType {
    Pattern,
    Url,
}

fn dummy_url() -> Url {
    Url::parse("https://dummy.invalid/").expect("the dummy URL parses")
}

fn refused(component: &'static str, value: &str) -> PatternError {
    PatternError::Canonical {
        component,
        value: value.to_string(),
    }
}

/// [Canonicalize a protocol](https://urlpattern.spec.whatwg.org/#canonicalize-a-protocol).
pub(super) fn protocol(value: &str) -> Result<String, PatternError> {
    if value.is_empty() {
        return Ok(String::new());
    }
    match Url::parse(&format!("{value}://dummy.invalid/")) {
        Ok(url) => Ok(url.scheme().to_string()),
        Err(_) => Err(refused("protocol", value)),
    }
}

/// [Canonicalize a username](https://urlpattern.spec.whatwg.org/#canonicalize-a-username).
pub(super) fn username(value: &str) -> Result<String, PatternError> {
    Ok(percent::utf8_percent_encode(value, &USERINFO).into_owned())
}

/// [Canonicalize a password](https://urlpattern.spec.whatwg.org/#canonicalize-a-password).
pub(super) fn password(value: &str) -> Result<String, PatternError> {
    username(value)
}

/// [Canonicalize a hostname](https://urlpattern.spec.whatwg.org/#canonicalize-a-hostname).
pub(super) fn hostname(value: &str) -> Result<String, PatternError> {
    if value.is_empty() {
        return Ok(String::new());
    }
    let mut url = dummy_url();
    if !url.try_set_hostname(value) {
        return Err(refused("hostname", value));
    }
    Ok(url.hostname().to_string())
}

/// [Canonicalize an IPv6 hostname](https://urlpattern.spec.whatwg.org/#canonicalize-an-ipv6-hostname).
pub(super) fn ipv6_hostname(value: &str) -> Result<String, PatternError> {
    let mut result = String::with_capacity(value.len());
    for c in value.chars() {
        if !c.is_ascii_hexdigit() && !matches!(c, '[' | ']' | ':') {
            return Err(refused("hostname", value));
        }
        result.push(c.to_ascii_lowercase());
    }
    Ok(result)
}

/// [Canonicalize a port](https://urlpattern.spec.whatwg.org/#canonicalize-a-port):
/// the port state with a state override, on a dummy URL whose scheme is
/// `protocol` when given. Without one no default port is dropped, as the
/// browsers and web-platform-tests do (`{protocol: "https", port: "443*"}`
/// keeps `443`), where the standard's text would use its `https` dummy.
pub(super) fn port(value: &str, protocol: Option<&str>) -> Result<String, PatternError> {
    if value.is_empty() {
        return Ok(String::new());
    }
    let input = remove_tab_and_newline(value, &mut NoReporter);
    let digits = input.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return Err(refused("port", value));
    }
    let mut port = 0u32;
    for b in input[..digits].bytes() {
        port = port * 10 + u32::from(b - b'0');
        if port > u32::from(u16::MAX) {
            return Err(refused("port", value));
        }
    }
    let scheme = SchemeType::from_scheme(protocol.unwrap_or("").as_bytes());
    if scheme.default_port() == Some(port as u16) {
        return Ok(String::new());
    }
    Ok(port.to_string())
}

/// [Canonicalize a pathname](https://urlpattern.spec.whatwg.org/#canonicalize-a-pathname).
pub(super) fn pathname(value: &str) -> Result<String, PatternError> {
    if value.is_empty() {
        return Ok(String::new());
    }
    let leading_slash = value.starts_with('/');
    let modified = if leading_slash {
        value.to_string()
    } else {
        format!("/-{value}")
    };
    let mut url = dummy_url();
    url.set_pathname(&modified);
    let result = url.pathname();
    Ok(if leading_slash {
        result.to_string()
    } else {
        result[2..].to_string()
    })
}

/// [Canonicalize an opaque pathname](https://urlpattern.spec.whatwg.org/#canonicalize-an-opaque-pathname):
/// the opaque path state up to the first `?` or `#`.
pub(super) fn opaque_pathname(value: &str) -> Result<String, PatternError> {
    let input = remove_tab_and_newline(value, &mut NoReporter);
    let end = input.find(['?', '#']).unwrap_or(input.len());
    let mut result = String::with_capacity(end);
    for (i, c) in input[..end].char_indices() {
        if c == ' ' {
            let next = input.as_bytes().get(i + 1);
            result.push_str(if matches!(next, Some(b'?' | b'#')) {
                "%20"
            } else {
                " "
            });
        } else {
            percent::encode_into(c.encode_utf8(&mut [0; 4]), &C0_CONTROL, &mut result);
        }
    }
    Ok(result)
}

/// [Canonicalize a search](https://urlpattern.spec.whatwg.org/#canonicalize-a-search):
/// the query state with a state override on a special URL (`#` encoded).
pub(super) fn search(value: &str) -> Result<String, PatternError> {
    let input = remove_tab_and_newline(value, &mut NoReporter);
    Ok(percent::utf8_percent_encode(&input, &SPECIAL_QUERY).into_owned())
}

/// [Canonicalize a hash](https://urlpattern.spec.whatwg.org/#canonicalize-a-hash).
pub(super) fn hash(value: &str) -> Result<String, PatternError> {
    let input = remove_tab_and_newline(value, &mut NoReporter);
    Ok(percent::utf8_percent_encode(&input, &FRAGMENT).into_owned())
}

fn is_special_scheme(scheme: &str) -> bool {
    SchemeType::from_scheme(scheme.as_bytes()).is_special()
}

/// [Process a base URL string](https://urlpattern.spec.whatwg.org/#process-a-base-url-string).
fn base_string(input: &str, kind: InitType) -> String {
    match kind {
        InitType::Url => input.to_string(),
        InitType::Pattern => {
            let mut out = String::with_capacity(input.len());
            super::parts::escape_pattern_into(input, &mut out);
            out
        }
    }
}

/// [Is an absolute pathname](https://urlpattern.spec.whatwg.org/#is-an-absolute-pathname).
fn is_absolute_pathname(input: &str, kind: InitType) -> bool {
    let b = input.as_bytes();
    match b {
        [] => false,
        [b'/', ..] => true,
        _ if kind == InitType::Url => false,
        [b'\\' | b'{', b'/', ..] => true,
        _ => false,
    }
}

/// [Processes a URLPatternInit](https://urlpattern.spec.whatwg.org/#process-a-urlpatterninit)
/// `init` as a pattern or a URL, starting from `defaults` (the components
/// already set, for a URL the empty strings).
pub(super) fn process_init(
    init: &Init,
    kind: InitType,
    defaults: Init,
) -> Result<Init, PatternError> {
    let mut result = defaults;
    let mut base = None;
    if let Some(base_text) = &init.base_url {
        let base_url =
            Url::parse(base_text).map_err(|_| PatternError::BaseUrl(base_text.clone()))?;
        let has = |c: &Option<String>| c.is_some();
        if !has(&init.protocol) {
            result.protocol = Some(base_string(base_url.scheme(), kind));
        }
        if kind != InitType::Pattern
            && !has(&init.protocol)
            && !has(&init.hostname)
            && !has(&init.port)
            && !has(&init.username)
        {
            result.username = Some(base_string(base_url.username(), kind));
        }
        if kind != InitType::Pattern
            && !has(&init.protocol)
            && !has(&init.hostname)
            && !has(&init.port)
            && !has(&init.username)
            && !has(&init.password)
        {
            result.password = Some(base_string(base_url.password(), kind));
        }
        if !has(&init.protocol) && !has(&init.hostname) {
            result.hostname = Some(base_string(base_url.hostname(), kind));
        }
        let above_port = has(&init.protocol) || has(&init.hostname) || has(&init.port);
        if !above_port {
            result.port = Some(base_url.port().to_string());
        }
        let above_pathname = above_port || has(&init.pathname);
        if !above_pathname {
            result.pathname = Some(base_string(base_url.pathname(), kind));
        }
        let above_search = above_pathname || has(&init.search);
        if !above_search {
            result.search = Some(base_string(base_url.query().unwrap_or(""), kind));
        }
        if !above_search && !has(&init.hash) {
            result.hash = Some(base_string(base_url.fragment().unwrap_or(""), kind));
        }
        base = Some(base_url);
    }
    let pattern = kind == InitType::Pattern;
    if let Some(value) = &init.protocol {
        let stripped = value.strip_suffix(':').unwrap_or(value);
        result.protocol = Some(if pattern {
            stripped.to_string()
        } else {
            protocol(stripped)?
        });
    }
    if let Some(value) = &init.username {
        result.username = Some(if pattern {
            value.clone()
        } else {
            username(value)?
        });
    }
    if let Some(value) = &init.password {
        result.password = Some(if pattern {
            value.clone()
        } else {
            password(value)?
        });
    }
    if let Some(value) = &init.hostname {
        result.hostname = Some(if pattern {
            value.clone()
        } else {
            hostname(value)?
        });
    }
    let protocol_string = result.protocol.clone().unwrap_or_default();
    if let Some(value) = &init.port {
        result.port = Some(if pattern {
            value.clone()
        } else {
            port(value, Some(&protocol_string))?
        });
    }
    if let Some(value) = &init.pathname {
        let mut path = value.clone();
        if let Some(base) = &base
            && !base.has_opaque_path()
            && !is_absolute_pathname(&path, kind)
        {
            let base_path = base_string(base.pathname(), kind);
            if let Some(slash) = base_path.rfind('/') {
                path = format!("{}{path}", &base_path[..=slash]);
            }
        }
        result.pathname = Some(if pattern {
            path
        } else if protocol_string.is_empty() || is_special_scheme(&protocol_string) {
            pathname(&path)?
        } else {
            opaque_pathname(&path)?
        });
    }
    if let Some(value) = &init.search {
        let stripped = value.strip_prefix('?').unwrap_or(value);
        result.search = Some(if pattern {
            stripped.to_string()
        } else {
            search(stripped)?
        });
    }
    if let Some(value) = &init.hash {
        let stripped = value.strip_prefix('#').unwrap_or(value);
        result.hash = Some(if pattern {
            stripped.to_string()
        } else {
            hash(stripped)?
        });
    }
    Ok(result)
}
