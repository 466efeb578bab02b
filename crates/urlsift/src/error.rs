//! Parse failures and the standard's validation errors.
//!
//! [`ParseError`] is what a failed parse returns: a small `Copy` enum whose
//! variants name the validation error that made the standard "return
//! failure", plus [`ParseError::TooLong`] for results our `u32` offsets cannot
//! address. [`ValidationError`] lists every validation error the standard
//! names (<https://url.spec.whatwg.org/#validation-error>); a parser reports
//! them to a [`Reporter`], and [`NoReporter`] makes reporting free.

use std::fmt;

macro_rules! validation_errors {
    ($( $(#[$doc:meta])* $variant:ident => $name:literal, )*) => {
        /// A validation error named by the URL Standard's table of error types.
        ///
        /// Most validation errors do not stop parsing; those that do also
        /// appear as the [`ParseError`] returned by the parser.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum ValidationError {
            $( $(#[$doc])* $variant, )*
        }

        impl ValidationError {
            /// Every validation error, in the standard's table order.
            pub const ALL: &'static [ValidationError] = &[$(ValidationError::$variant),*];

            /// The error's name exactly as the standard spells it, e.g. `"IPv4-non-decimal-part"`.
            pub fn name(self) -> &'static str {
                match self { $(ValidationError::$variant => $name,)* }
            }
        }
    };
}

validation_errors! {
    /// Unicode ToASCII recorded an error (<https://url.spec.whatwg.org/#validation-error-domain-to-ascii>).
    DomainToAscii => "domain-to-ASCII",
    /// The input's host contains a percent-encoded byte.
    DomainPercentEncoded => "domain-percent-encoded",
    /// An opaque host contains a forbidden host code point.
    HostInvalidCodePoint => "host-invalid-code-point",
    /// An IPv4 address ends with a U+002E (.).
    Ipv4EmptyPart => "IPv4-empty-part",
    /// An IPv4 address does not consist of exactly 4 parts.
    Ipv4TooFewParts => "IPv4-too-few-parts",
    /// An IPv4 address has more than 4 parts.
    Ipv4TooManyParts => "IPv4-too-many-parts",
    /// An IPv4 address part is not numeric.
    Ipv4NonNumericPart => "IPv4-non-numeric-part",
    /// An IPv4 address part is written in hexadecimal or octal.
    Ipv4NonDecimalPart => "IPv4-non-decimal-part",
    /// An IPv4 address part exceeds 255.
    Ipv4OutOfRangePart => "IPv4-out-of-range-part",
    /// An IPv6 address is missing the closing U+005D (]).
    Ipv6Unclosed => "IPv6-unclosed",
    /// An IPv6 address begins with improper compression.
    Ipv6InvalidCompression => "IPv6-invalid-compression",
    /// An IPv6 address contains more than 8 pieces.
    Ipv6TooManyPieces => "IPv6-too-many-pieces",
    /// An IPv6 address is compressed in more than one spot.
    Ipv6MultipleCompression => "IPv6-multiple-compression",
    /// An IPv6 address contains a code point that is neither an ASCII hex digit nor a U+003A (:), or it unexpectedly ends.
    Ipv6InvalidCodePoint => "IPv6-invalid-code-point",
    /// An uncompressed IPv6 address contains fewer than 8 pieces.
    Ipv6TooFewPieces => "IPv6-too-few-pieces",
    /// An IPv6 address piece has a leading zero.
    Ipv6PieceLeadingZero => "IPv6-piece-leading-zero",
    /// An IPv6 address with IPv4 address syntax: the IPv6 address has more than 6 pieces.
    Ipv4InIpv6TooManyPieces => "IPv4-in-IPv6-too-many-pieces",
    /// An IPv6 address with IPv4 address syntax: an IPv4 part is empty or contains a non-ASCII digit, or the address contains too many parts or a leading 0.
    Ipv4InIpv6InvalidCodePoint => "IPv4-in-IPv6-invalid-code-point",
    /// An IPv6 address with IPv4 address syntax: an IPv4 part exceeds 255.
    Ipv4InIpv6OutOfRangePart => "IPv4-in-IPv6-out-of-range-part",
    /// An IPv6 address with IPv4 address syntax: an IPv4 address contains too few parts.
    Ipv4InIpv6TooFewParts => "IPv4-in-IPv6-too-few-parts",
    /// A code point is found that is not a URL unit.
    InvalidUrlUnit => "invalid-URL-unit",
    /// The input's scheme is not followed by "//".
    SpecialSchemeMissingFollowingSolidus => "special-scheme-missing-following-solidus",
    /// The input is missing a scheme, because it does not begin with an ASCII alpha, and either no base URL was provided or the base URL cannot be used as a base URL because it has an opaque path.
    MissingSchemeNonRelativeUrl => "missing-scheme-non-relative-URL",
    /// The URL has a special scheme and it uses U+005C (\) instead of U+002F (/).
    InvalidReverseSolidus => "invalid-reverse-solidus",
    /// The input includes credentials.
    InvalidCredentials => "invalid-credentials",
    /// The input has a special scheme, but does not contain a host.
    HostMissing => "host-missing",
    /// The input's port is too big.
    PortOutOfRange => "port-out-of-range",
    /// The input's port is invalid.
    PortInvalid => "port-invalid",
    /// The input is a relative-URL string that starts with a Windows drive letter and the base URL's scheme is "file".
    FileInvalidWindowsDriveLetter => "file-invalid-Windows-drive-letter",
    /// A file: URL's host is a Windows drive letter.
    FileInvalidWindowsDriveLetterHost => "file-invalid-Windows-drive-letter-host",
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a URL failed to parse.
///
/// Each variant but [`ParseError::TooLong`] carries the name of the validation
/// error on which the standard returns failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParseError {
    /// The standard returned failure right after this validation error.
    Invalid(ValidationError),
    /// The serialized URL would be longer than `u32::MAX` bytes, the limit
    /// of the component offsets.
    TooLong,
}

impl ParseError {
    /// The validation error that made parsing fail, if any.
    pub fn validation_error(self) -> Option<ValidationError> {
        match self {
            ParseError::Invalid(e) => Some(e),
            ParseError::TooLong => None,
        }
    }
}

impl From<ValidationError> for ParseError {
    fn from(e: ValidationError) -> Self {
        ParseError::Invalid(e)
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Invalid(e) => write!(f, "invalid URL ({e})"),
            ParseError::TooLong => f.write_str("URL too long (over 4 GiB serialized)"),
        }
    }
}

impl std::error::Error for ParseError {}

/// Receives validation errors while parsing.
///
/// The parser is generic over its reporter; with [`NoReporter`], whose
/// `ENABLED` is false, every report and every check done only to report
/// compiles away.
pub trait Reporter {
    /// False only for reporters that drop everything.
    const ENABLED: bool = true;
    /// Called once per validation error, in input order.
    fn report(&mut self, error: ValidationError);
}

/// The reporter that ignores everything, at no cost.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoReporter;

impl Reporter for NoReporter {
    const ENABLED: bool = false;
    #[inline(always)]
    fn report(&mut self, _: ValidationError) {}
}

impl Reporter for Vec<ValidationError> {
    fn report(&mut self, error: ValidationError) {
        self.push(error);
    }
}
