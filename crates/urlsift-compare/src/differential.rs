//! The differential: every URL parsed by every parser, in corpus order,
//! each peer's answers held to urlsift's ([`diff::compare_with`]).

use crate::Error;
use crate::corpus::Corpus;
use crate::diff::{self, PeerDiff, Sample, Shown};
use crate::engines::{Engine, ParserId, Work};
use crate::report;

/// Parses every URL with every engine, in corpus order: each engine's
/// work (valid URLs, href bytes; what its timed rounds must match) and
/// each peer's disagreements with urlsift (`engines[0]`), every one
/// given to `diff_out` as a line of JSON when given. `tick` gets the lines
/// done.
///
/// ```
/// use urlsift_compare::corpus::{Load, load};
/// use urlsift_compare::differential::differential;
/// use urlsift_compare::engines::{Base, Engine, Native, ParserId};
///
/// # let tmp = tempfile::Builder::new().prefix("urlsift-doc-diff-").tempdir().unwrap();
/// # let dir = tmp.path();
/// let path = dir.join("urls.txt");
/// std::fs::write(&path, "https://example.com/a\nhttp://[::1]:80/\n").unwrap();
/// let corpus = load(&Load { files: vec![path], max_line: 1 << 20, chunk_size: 1 << 16, ..Load::default() })?;
/// let ids = [ParserId::Urlsift, ParserId::UrlsiftMachine];
/// let base = Base::new(None)?;
/// let mut engines: Vec<Box<dyn Engine>> =
///     ids.iter().map(|&id| Box::new(Native::new(id, &base)) as Box<dyn Engine>).collect();
/// let mut lines = Vec::new();
/// let (works, diffs) = differential::<urlsift_compare::Error, _>(
///     &corpus, &ids, &mut engines, 3,
///     Some(|line: &[u8]| Ok(lines.push(line.to_vec()))),
///     |_| {},
/// )?;
/// assert_eq!(works[0], works[1]); // the state machine agrees with the dispatcher
/// assert_eq!((diffs[0].lines, lines.len()), (0, 0));
/// # Ok::<(), urlsift_compare::Error>(())
/// ```
pub fn differential<E: From<Error>, W: FnMut(&[u8]) -> Result<(), E>>(
    corpus: &Corpus,
    ids: &[ParserId],
    engines: &mut [Box<dyn Engine + '_>],
    samples: usize,
    mut diff_out: Option<W>,
    mut tick: impl FnMut(u64),
) -> Result<(Vec<Work>, Vec<PeerDiff>), E> {
    debug_assert_eq!(ids.first(), Some(&ParserId::Urlsift));
    let mut works = vec![Work::default(); engines.len()];
    let mut diffs: Vec<PeerDiff> = ids[1..].iter().map(|&id| PeerDiff::new(id)).collect();
    let mut results = Vec::with_capacity(engines.len());
    let mut line = Vec::new();
    for i in 0..corpus.len() {
        let input = corpus.url(i);
        results.clear();
        for (engine, work) in engines.iter_mut().zip(&mut works) {
            let parsed = engine.parse(i, input)?;
            work.add(parsed.href_len());
            results.push(parsed);
        }
        let (ours, peers) = results.split_first().expect("urlsift is first");
        for (theirs, d) in peers.iter().zip(&mut diffs) {
            let Some(finding) = diff::compare_with(d.peer, input, ours, theirs) else {
                continue;
            };
            let (source, number) = corpus.location(i);
            let by_meaning = d.peer.reads_meaning();
            let sample = || {
                let (shown_ours, shown_theirs, fields) = if by_meaning {
                    let (a, b) = (Shown::parts_of(ours), Shown::parts_of(theirs));
                    let fields = diff::part_values(&finding, &a, &b);
                    (a, b, fields)
                } else {
                    let fields = diff::field_values(&finding, ours, theirs);
                    (Shown::of(ours), Shown::of(theirs), fields)
                };
                Sample {
                    source: source.to_string(),
                    line: number,
                    input: input.to_string(),
                    ours: shown_ours,
                    theirs: shown_theirs,
                    fields,
                }
            };
            if let Some(out) = diff_out.as_mut() {
                let mut v = report::sample_json(&sample());
                v["parser"] = d.peer.name().into();
                v["category"] = finding.category.into();
                v["reason"] = finding.reason.into();
                v["standard"] = diff::verdict(d.peer).into();
                line.clear();
                serde_json::to_writer(&mut line, &v).expect("json");
                out(&line)?;
            }
            d.add(&finding, ours.is_ok(), samples, sample);
        }
        if i % 4096 == 4095 {
            tick(4096);
        }
    }
    tick(corpus.len() as u64 % 4096);
    Ok((works, diffs))
}
