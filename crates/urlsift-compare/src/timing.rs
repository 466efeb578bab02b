//! The speed half: every parser makes one pass over the same in-memory
//! URLs per round, the parsers taking turns within each round (and the
//! first turn rotating), so a noisy neighbour slows all of them alike.
//! Each parser's minimum and median over the rounds become ns/URL, URLs/s,
//! MB/s and the ratio to the fastest.
//!
//! The work is checked, not trusted: every round of a parser must parse
//! exactly the URLs its differential pass found valid, to hrefs of the
//! same total length. A parser that did less (or other) work is flagged
//! and cannot be "the fastest".

use crate::Error;
use crate::engines::{Engine, Round, Work};

/// One parser's rounds.
#[derive(Clone, Debug)]
pub struct Rounds {
    /// Every timed pass, in order.
    pub rounds: Vec<Round>,
}

/// Runs `rounds` rounds of every engine over `urls`, calling `tick` after
/// each pass (for the progress bar).
pub fn run(
    engines: &mut [Box<dyn Engine + '_>],
    urls: &[&str],
    rounds: usize,
    pool: Option<&rayon::ThreadPool>,
    mut tick: impl FnMut(),
) -> Result<Vec<Rounds>, Error> {
    let mut out: Vec<Rounds> = engines
        .iter()
        .map(|_| Rounds {
            rounds: Vec::with_capacity(rounds),
        })
        .collect();
    let n = engines.len();
    for round in 0..rounds {
        for turn in 0..n {
            let i = (round + turn) % n;
            out[i].rounds.push(engines[i].round(urls, pool)?);
            tick();
        }
    }
    Ok(out)
}

/// Whether a parser's timed rounds did the work expected of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Check {
    /// Every round did the expected work.
    Ok,
    /// Some round parsed fewer URLs or wrote fewer href bytes.
    LessWork {
        /// The work of the differential pass.
        expected: Work,
        /// The work of the round that differs.
        got: Work,
    },
    /// Some round did other work than expected (but not less).
    OtherWork {
        /// The work of the differential pass.
        expected: Work,
        /// The work of the round that differs.
        got: Work,
    },
}

impl Check {
    /// Compares every round's work with `expected`.
    pub fn of(expected: Work, rounds: &[Round]) -> Check {
        let mut check = Check::Ok;
        for r in rounds {
            let got = r.work;
            if got.valid < expected.valid || got.href_bytes < expected.href_bytes {
                return Check::LessWork { expected, got };
            }
            if got != expected {
                check = Check::OtherWork { expected, got };
            }
        }
        check
    }

    /// Whether every round did the expected work.
    pub fn is_ok(&self) -> bool {
        *self == Check::Ok
    }

    /// `ok`, or what was wrong.
    pub fn describe(&self) -> String {
        match self {
            Check::Ok => "ok".to_string(),
            Check::LessWork { expected, got } => format!(
                "DID LESS WORK: {} valid, {} href bytes; expected {} and {}",
                got.valid, got.href_bytes, expected.valid, expected.href_bytes
            ),
            Check::OtherWork { expected, got } => format!(
                "DID OTHER WORK: {} valid, {} href bytes; expected {} and {}",
                got.valid, got.href_bytes, expected.valid, expected.href_bytes
            ),
        }
    }
}

/// One parser's figures.
#[derive(Clone, Debug)]
pub struct Speed {
    /// Best and median ns per URL over the rounds.
    pub min_ns: f64,
    /// Median ns per URL over the rounds.
    pub median_ns: f64,
    /// From the best round.
    pub urls_per_sec: f64,
    /// MB of input per second, from the best round.
    pub mb_per_sec: f64,
    /// Best ns/URL over the fastest checked parser's (1.0 for it).
    pub ratio: f64,
    /// Whether the rounds did the work the differential pass did.
    pub check: Check,
}

/// Figures for each parser; `expected[i]` is the work parser `i` must do,
/// `bytes` the URLs' total size.
pub fn summarize(all: &[Rounds], expected: &[Work], urls: usize, bytes: u64) -> Vec<Speed> {
    let per_url = |nanos: u64| nanos as f64 / urls.max(1) as f64;
    let mut speeds: Vec<Speed> = all
        .iter()
        .zip(expected)
        .map(|(r, &expected)| {
            let mut ns: Vec<f64> = r.rounds.iter().map(|x| per_url(x.nanos)).collect();
            ns.sort_by(f64::total_cmp);
            let min_ns = ns.first().copied().unwrap_or(f64::NAN);
            let median_ns = match ns.len() {
                0 => f64::NAN,
                n if n % 2 == 1 => ns[n / 2],
                n => (ns[n / 2 - 1] + ns[n / 2]) / 2.0,
            };
            let secs = min_ns * urls as f64 / 1e9;
            Speed {
                min_ns,
                median_ns,
                urls_per_sec: urls as f64 / secs,
                mb_per_sec: bytes as f64 / secs / 1e6,
                ratio: f64::NAN,
                check: Check::of(expected, &r.rounds),
            }
        })
        .collect();
    let fastest = speeds
        .iter()
        .filter(|s| s.check.is_ok())
        .map(|s| s.min_ns)
        .fold(f64::INFINITY, f64::min);
    for s in &mut speeds {
        s.ratio = s.min_ns / fastest;
    }
    speeds
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::{Base, Native, Parsed, ParserId, timed};

    /// A test-only parser that claims to be urlsift but skips every
    /// tenth URL in its timed passes (so it looks faster).
    struct Lazy;

    impl Engine for Lazy {
        fn parse(&mut self, _: usize, input: &str) -> Result<Parsed, Error> {
            Ok(urlsift::Url::parse(input).into())
        }

        fn round(
            &mut self,
            urls: &[&str],
            pool: Option<&rayon::ThreadPool>,
        ) -> Result<Round, Error> {
            Ok(timed(urls, pool, |share| {
                let mut w = Work::default();
                for (i, u) in share.iter().enumerate() {
                    if i % 10 != 9 {
                        w.add(urlsift::Url::parse(u).ok().map(|u| u.href().len()));
                    }
                }
                w
            }))
        }
    }

    #[test]
    fn a_parser_that_skips_work_is_flagged_and_not_the_fastest() {
        let base = Base::new(None).unwrap();
        let urls: Vec<String> = (0..200)
            .map(|i| format!("https://host{i}.example/p?q={i}"))
            .collect();
        let urls: Vec<&str> = urls.iter().map(String::as_str).collect();
        let mut engines: Vec<Box<dyn Engine>> = vec![
            Box::new(Native::new(ParserId::Urlsift, &base)),
            Box::new(Lazy),
        ];
        // The work each must do, from the differential pass.
        let mut expected = vec![Work::default(); engines.len()];
        for (i, url) in urls.iter().enumerate() {
            for (e, w) in engines.iter_mut().zip(&mut expected) {
                w.add(e.parse(i, url).unwrap().href_len());
            }
        }
        assert_eq!(expected[0], expected[1]);
        let mut ticks = 0;
        let rounds = run(&mut engines, &urls, 3, None, || ticks += 1).unwrap();
        assert_eq!(ticks, 6);
        assert!(rounds.iter().all(|r| r.rounds.len() == 3));
        let speeds = summarize(&rounds, &expected, urls.len(), 1000);
        assert!(speeds[0].check.is_ok(), "{:?}", speeds[0].check);
        assert!(
            matches!(speeds[1].check, Check::LessWork { .. }),
            "{:?}",
            speeds[1].check
        );
        assert!(speeds[1].check.describe().starts_with("DID LESS WORK"));
        // The only checked parser is the fastest by definition.
        assert_eq!(speeds[0].ratio, 1.0);
    }

    #[test]
    fn other_work_is_flagged_too_and_figures_follow_the_rounds() {
        let w = |valid, href_bytes| Work { valid, href_bytes };
        let round = |nanos, work| Round { nanos, work };
        let expected = w(10, 100);
        assert_eq!(Check::of(expected, &[round(5, w(10, 100))]), Check::Ok);
        assert!(matches!(
            Check::of(expected, &[round(5, w(10, 100)), round(5, w(10, 101))]),
            Check::OtherWork { .. }
        ));
        assert!(matches!(
            Check::of(expected, &[round(5, w(11, 99))]),
            Check::LessWork { .. }
        ));
        let all = [
            Rounds {
                rounds: vec![
                    round(3000, expected),
                    round(1000, expected),
                    round(2000, expected),
                ],
            },
            Rounds {
                rounds: vec![round(4000, expected), round(2000, expected)],
            },
        ];
        let s = summarize(&all, &[expected, expected], 10, 1_000_000);
        assert_eq!((s[0].min_ns, s[0].median_ns), (100.0, 200.0));
        assert_eq!((s[1].min_ns, s[1].median_ns), (200.0, 300.0));
        assert_eq!((s[0].ratio, s[1].ratio), (1.0, 2.0));
        assert_eq!(s[0].urls_per_sec, 1e7);
        // 1 MB in the best round's 1 µs.
        assert_eq!(s[0].mb_per_sec, 1e6);
    }
}
