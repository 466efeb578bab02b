//! The seen-set's tests (`seen.rs`): the same output for any number of
//! partitions, looked up in order or ahead by the workers, in memory and
//! spilled.

use super::Seen;
use crate::dedup::{Key, Keying};
use crate::stage::{Edits, Filters, Stage};
use crate::{Engine, Job, Options};
use urlsift::profile::Profile;
use urlsift::site::List;

/// `dedup` of `input` by `key` in chunks of 512 bytes on two workers, with
/// the seen-set in `threads` partitions (counting with `count`,
/// keeping `samples` per key, spilling past `budget` bytes).
fn dedup(input: &str, key: Key, threads: usize, count: bool, samples: u32, budget: u64) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("urls.txt");
    std::fs::write(&path, input).unwrap();
    let tmp = Some(dir.path().to_path_buf());
    let (out, _) = run(vec![path], 2, key, |_| {
        Seen::new(budget, count, tmp, b'\n')
            .samples(samples)
            .threads(threads)
            .unwrap()
    });
    out
}

/// Runs `dedup` of `paths` by `key` in chunks of 512 bytes on
/// `threads` workers with the seen-set `seen` makes for the engine
/// (fed by the workers when it looks up ahead); returns the output
/// and the number of read errors.
fn run(
    paths: Vec<std::path::PathBuf>,
    threads: usize,
    key: Key,
    seen: impl FnOnce(&Engine) -> Seen,
) -> (String, usize) {
    let options = Options {
        chunk_size: 512,
        threads: Some(threads),
        ..Options::default()
    };
    let engine = Engine::new(paths, &options).unwrap();
    let stage = Stage::new(List::builtin(), &Filters::default(), &Edits::default()).unwrap();
    let profile = Profile::new();
    let keying = Keying {
        key,
        profile: &profile,
        stage: &stage,
        terminator: b'\n',
        with_key: false,
    };
    let job = Job::default();
    let mut seen = seen(&engine);
    let (ahead, partitions) = (seen.lookups_ahead(), seen.partitions());
    let mut out = Vec::new();
    let errors = engine
        .run(
            |chunk| {
                let mut p = keying.chunk(&job, chunk, None, Default::default());
                match &ahead {
                    Some(ahead) => ahead.deal(chunk, &mut p),
                    None => p.extra.deal(&p.out, &p.passed_through, partitions),
                }
                p
            },
            |chunk, p| seen.offer_chunk(chunk, p, &mut out).map(|()| true),
        )
        .unwrap();
    seen.finish(&mut out).unwrap();
    (String::from_utf8(out).unwrap(), errors.len())
}

/// `dedup` of `inputs` (one file each; `Err`: gzipped and cut in
/// the middle, its records up to the cut then a read error) by `key`
/// in chunks of 512 bytes
/// on `threads` workers that look up the seen-set ahead
/// ([`Seen::ahead`]), spilling past `budget` bytes.
fn dedup_ahead(inputs: &[Result<String, String>], key: Key, threads: usize, budget: u64) -> String {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let paths = inputs
        .iter()
        .enumerate()
        .map(|(i, input)| match input {
            Ok(input) => {
                let path = dir.path().join(format!("urls{i}.txt"));
                std::fs::write(&path, input).unwrap();
                path
            }
            Err(input) => {
                let path = dir.path().join(format!("urls{i}.txt.gz"));
                let mut gz = flate2::write::GzEncoder::new(Vec::new(), Default::default());
                gz.write_all(input.as_bytes()).unwrap();
                let gz = gz.finish().unwrap();
                std::fs::write(&path, &gz[..gz.len() / 2]).unwrap();
                path
            }
        })
        .collect();
    let tmp = Some(dir.path().to_path_buf());
    let (out, errors) = run(paths, threads, key, |engine| {
        let seen = Seen::new(budget, false, tmp, b'\n');
        let seen = seen.ahead(engine.threads(), engine.chunk_order());
        assert_eq!(seen.lookups_ahead().is_some(), threads > 2);
        seen
    });
    assert_eq!(errors, inputs.iter().filter(|i| i.is_err()).count());
    out
}

/// Looked up ahead by the workers, over several inputs (one cut
/// short among them, an empty one), in memory and moving to
/// disk at the start, in the middle (keys looked up ahead of the
/// spill's first chunk) and near the end: the output of one worker.
#[test]
fn lookups_ahead_keep_the_output() {
    let part = |from: usize, to: usize| -> String {
        (from..to)
            .map(|i| format!("https://h{}.example/p{}\n", i % 53, (i * 7) % 89))
            .collect()
    };
    let inputs = [
        Ok(part(0, 1500)),
        Err(part(4000, 6000)),
        Ok(String::new()),
        Ok(part(1500, 2600)),
        Ok(part(2600, 4000)),
    ];
    for key in [Key::Href, Key::Host] {
        let one = dedup_ahead(&inputs, key, 1, 1 << 30);
        assert!(one.lines().count() > 50, "{one}");
        for budget in [1 << 30, 1, 20_000, 60_000, 120_000] {
            let alone = dedup_ahead(&inputs, key, 1, budget);
            assert_eq!(alone, one, "one worker, budget {budget}");
            for threads in [3, 4, 8] {
                let many = dedup_ahead(&inputs, key, threads, budget);
                assert_eq!(many, one, "{threads} workers, budget {budget}");
            }
        }
    }
}

/// Chunks where few records are new (a log of repeats) put their
/// first records in order from the partitions' lists: still input
/// order, whichever partitions they fell to.
#[test]
fn few_new_records_come_out_in_input_order() {
    let input: String = (0..6000)
        .map(|i| {
            if i % 12 == 0 {
                format!("https://n{i}.example/\n")
            } else {
                format!("https://r{}.example/\n", i % 5)
            }
        })
        .collect();
    let one = dedup(&input, Key::Href, 1, false, 1, 1 << 30);
    assert_eq!(one.lines().count(), 500 + 5);
    for threads in [3, 8] {
        assert_eq!(
            dedup(&input, Key::Href, threads, false, 1, 1 << 30),
            one,
            "{threads}"
        );
    }
}

/// Whatever the number of partitions, the same records come out in the
/// same order: first records, samples, counts, in memory and spilled.
#[test]
fn partitions_keep_the_output() {
    let input: String = (0..3000)
        .map(|i| format!("https://h{}.example/p{}\n", i % 37, (i * 7) % 101))
        .collect();
    for key in [Key::Href, Key::Host] {
        for (count, samples, budget) in [
            (false, 1, 1 << 30),
            (true, 1, 1 << 30),
            (false, 3, 1 << 30),
            (true, 2, 1 << 30),
            (false, 1, 4096),
            (true, 2, 4096),
        ] {
            let one = dedup(&input, key, 1, count, samples, budget);
            assert!(one.lines().count() > 30, "{one}");
            for threads in [2, 3, 8] {
                let many = dedup(&input, key, threads, count, samples, budget);
                assert_eq!(
                    many, one,
                    "{threads} partitions, count {count}, samples {samples}, budget {budget}"
                );
            }
        }
    }
}
