//! Parses a corpus file N times with one path (for profilers and
//! instruction counts). Usage:
//! cargo run --release --example profile FILE [N] [dispatch|machine|batch|ada]
fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("FILE");
    let n: usize = args.next().map_or(20, |s| s.parse().expect("N"));
    let mode = args.next().unwrap_or_else(|| "dispatch".to_string());
    let text = std::fs::read_to_string(path).expect("read");
    let lines: Vec<&str> = text.lines().collect();
    let mut total = 0usize;
    let mut batch = urlsift::BatchParser::new();
    let start = std::time::Instant::now();
    for _ in 0..n {
        for line in &lines {
            total += match mode.as_str() {
                "dispatch" => urlsift::Url::parse(line).map_or(0, |u| u.href().len()),
                "machine" => urlsift::paths::machine(line, None).map_or(0, |u| u.href().len()),
                "batch" => batch.parse(line, None).map_or(0, |u| u.href().len()),
                "ada" => ada_url::Url::parse(*line, None).map_or(0, |u| u.href().len()),
                "copy" => line.to_string().len(),
                "simd" => {
                    urlsift::simd::find_in_set(line.as_bytes(), &urlsift::paths::FAST_PATH_DECLINE)
                        .map_or(line.len(), |i| i)
                }
                other => panic!("unknown mode {other}"),
            };
        }
    }
    let ns = start.elapsed().as_nanos() as f64 / (n * lines.len()) as f64;
    println!("{mode}: {total} bytes, {ns:.1} ns/URL");
}
