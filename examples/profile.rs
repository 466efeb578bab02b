//! Parses a corpus file N times (for profilers).
//! Usage: cargo run --release --example profile FILE [N]
fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("FILE");
    let n: usize = args.next().map_or(20, |s| s.parse().expect("N"));
    let text = std::fs::read_to_string(path).expect("read");
    let lines: Vec<&str> = text.lines().collect();
    let mut total = 0usize;
    let start = std::time::Instant::now();
    for _ in 0..n {
        for line in &lines {
            if let Ok(url) = urlsift::Url::parse(line) {
                total += url.href().len();
            }
        }
    }
    let ns = start.elapsed().as_nanos() as f64 / (n * lines.len()) as f64;
    println!("{total} bytes, {ns:.1} ns/URL");
}
