//! Prints, per corpus file, how many lines urlsift, ada and the url crate
//! accept and where their hrefs differ (first few differences shown).
//! Usage: cargo run --release --example compare [CORPORA_DIR]

fn main() {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "../shared/corpora".to_string());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("corpora dir")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    for path in files {
        let text = std::fs::read_to_string(&path).expect("utf-8 corpus");
        let (mut ours, mut ada_ok, mut url_ok, mut diff_ada, mut diff_url) = (0, 0, 0, 0, 0);
        let mut shown = 0;
        for line in text.lines() {
            let a = urlsift::Url::parse(line).ok();
            let b = ada_url::Url::parse(line, None).ok();
            let c = url::Url::parse(line).ok();
            ours += a.is_some() as usize;
            ada_ok += b.is_some() as usize;
            url_ok += c.is_some() as usize;
            let ah = a.as_ref().map(|u| u.href().to_string());
            let bh = b.as_ref().map(|u| u.href().to_string());
            let ch = c.as_ref().map(|u| u.as_str().to_string());
            if ah != bh {
                diff_ada += 1;
                if shown < 4 {
                    shown += 1;
                    println!("  ada differs: {line:?}\n    ours {ah:?}\n    ada  {bh:?}");
                }
            }
            if ah != ch {
                diff_url += 1;
            }
        }
        println!(
            "{}: lines {} ours {} ada {} url {} | href diffs vs ada {} vs url {}",
            path.file_name().unwrap().to_string_lossy(),
            text.lines().count(),
            ours,
            ada_ok,
            url_ok,
            diff_ada,
            diff_url
        );
    }
}
