//! `urlsift compare --html` opened in a real headless browser (Debian's
//! `chromium`): the throughput chart and the host confusion matrix are laid
//! out with a size, a bar per parser and a row per peer, and the console
//! shows no error. A browser is not on a fresh machine, so `cargo test`
//! lists this as ignored; `.ci/run` installs chromium and runs it
//! (`cargo test --test browser -- --ignored`). `URLSIFT_CHROMIUM` names
//! the browser (default: `chromium` on PATH); without one the test fails
//! and says so.

use std::path::{Path, PathBuf};
use std::process::Command;

fn chromium() -> PathBuf {
    if let Some(path) = std::env::var_os("URLSIFT_CHROMIUM") {
        return path.into();
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .map(|dir| dir.join("chromium"))
        .find(|p| p.is_file())
        .expect("no chromium on PATH (Debian: apt-get install chromium; or set URLSIFT_CHROMIUM)")
}

/// Loads `page` headless; returns the DOM after load and the browser's log.
fn load(dir: &Path, page: &Path) -> (String, String) {
    let profile = dir.join("profile");
    let out = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--allow-file-access-from-files",
            "--enable-logging=stderr",
            "--v=0",
            "--virtual-time-budget=5000",
            "--window-size=1400,2000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("run chromium");
    assert!(
        out.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Console messages the page caused (the browser's own chatter aside).
fn console_errors(log: &str) -> Vec<&str> {
    log.lines()
        .filter(|l| l.contains("CONSOLE") || l.contains("Uncaught"))
        .collect()
}

#[test]
#[ignore = "needs a browser: .ci/run installs chromium and runs it"]
fn compare_html_renders_with_chart_and_matrix_and_no_console_error() {
    let dir = tempfile::Builder::new()
        .prefix("urlsift-browser-")
        .tempdir()
        .unwrap();
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpora/confusion.txt");
    let report = dir.path().join("report.html");
    let status = Command::new(env!("CARGO_BIN_EXE_urlsift"))
        .args([
            "compare",
            "-q",
            "--rounds",
            "1",
            "--parsers",
            "python,java,curl",
            "--html",
        ])
        .arg(&report)
        .arg(&corpus)
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "urlsift compare --html failed");

    // The report itself: no console error.
    let (_, log) = load(dir.path(), &report);
    assert_eq!(
        console_errors(&log),
        Vec::<&str>::new(),
        "the report's console"
    );

    // Laid out: a page that frames the report measures its parts.
    let check = dir.path().join("check.html");
    std::fs::write(
        &check,
        r#"<!DOCTYPE html><html><body>
<iframe id="f" src="report.html" style="width:1300px;height:3000px"></iframe>
<script>
document.getElementById('f').onload = () => {
  const d = document.getElementById('f').contentDocument;
  const size = (e) => { if (!e) return null; const r = e.getBoundingClientRect(); return [Math.round(r.width), Math.round(r.height)]; };
  const chart = d.querySelector('svg.chart');
  const matrix = d.getElementById('host-confusion');
  document.body.setAttribute('data-result', JSON.stringify({
    chart: size(chart),
    bars: chart ? chart.querySelectorAll('rect').length : 0,
    matrix: size(matrix),
    rows: matrix ? matrix.querySelectorAll('tbody tr').length : 0,
    hits: matrix ? matrix.querySelectorAll('td.hit').length : 0,
  }));
};
</script></body></html>"#,
    )
    .unwrap();
    let (dom, log) = load(dir.path(), &check);
    assert_eq!(
        console_errors(&log),
        Vec::<&str>::new(),
        "the check page's console"
    );
    let start = dom.find("data-result=\"").expect("the check ran") + "data-result=\"".len();
    let json = dom[start..start + dom[start..].find('"').unwrap()].replace("&quot;", "\"");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    let positive = |key: &str| {
        let size = v[key].as_array().unwrap_or_else(|| panic!("no {key}: {v}"));
        size.iter().all(|n| n.as_f64().unwrap() > 10.0)
    };
    assert!(positive("chart"), "the chart has a size: {v}");
    assert!(positive("matrix"), "the matrix has a size: {v}");
    assert_eq!(
        v["bars"], 4,
        "a bar per parser (urlsift and the three): {v}"
    );
    assert_eq!(v["rows"], 3, "a row per peer: {v}");
    assert!(v["hits"].as_u64().unwrap() >= 6, "cells with lines: {v}");
}
