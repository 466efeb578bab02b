//! Every line of every file in the shared corpora (≈1M real URLs): the
//! offsets are consistent, the href re-parses to itself, parsing with a
//! validation-error reporter gives the same result, and the href and every
//! getter agree with the `ada-url` crate.

use crate::common;

use urlsift::{Url, ValidationError};

#[test]
fn every_corpus_line() {
    let mut problems = Vec::new();
    let mut lines = 0usize;
    for path in common::corpus_files() {
        let text = std::fs::read_to_string(&path).expect("UTF-8 corpus");
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        for (n, line) in text.lines().enumerate() {
            lines += 1;
            let mut problem = |what: String| {
                if problems.len() < 50 {
                    problems.push(format!("{name}:{}: {line:?}: {what}", n + 1));
                }
            };
            let ours = Url::parse(line);
            let mut errors: Vec<ValidationError> = Vec::new();
            let reported = Url::parse_with_reporter(line, None, &mut errors);
            if ours.as_ref().map(Url::href).ok() != reported.as_ref().map(Url::href).ok() {
                problem("reporter changes the result".into());
            }
            let ada = ada_url::Url::parse(line, None).ok();
            match (&ours, &ada) {
                (Ok(u), Some(a)) => {
                    if let Err(e) = u.check_invariants() {
                        problem(e);
                    }
                    match Url::parse(u.href()) {
                        Ok(again) if again.href() == u.href() => {}
                        _ => problem("href does not re-parse to itself".into()),
                    }
                    if common::getters(u) != common::ada_getters(a) {
                        problem(format!(
                            "differs from ada: {:?} vs {:?}",
                            common::getters(u),
                            common::ada_getters(a)
                        ));
                    }
                }
                (Err(_), None) => {}
                (Ok(u), None) => problem(format!("ada rejects, we give {}", u.href())),
                (Err(e), Some(a)) => problem(format!("we reject ({e}), ada gives {}", a.href())),
            }
        }
    }
    assert!(lines > 500_000, "only {lines} corpus lines read");
    assert!(
        problems.is_empty(),
        "{} problem(s):\n{}",
        problems.len(),
        problems.join("\n")
    );
}
