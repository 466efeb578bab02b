//! Growth of parse time with input size for hostile inputs: each shape at
//! 1x, 4x and 16x of a base size. Linear time shows as equal throughput
//! (bytes/s) across the three sizes; `scripts/hostile-table` prints the
//! 16x/1x time ratio (16 means linear).

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};

const BASE: usize = 16 * 1024;

fn shapes(n: usize) -> Vec<(&'static str, String)> {
    vec![
        ("single_dots", format!("http://h/{}x", "./".repeat(n / 2))),
        (
            "double_dots",
            format!("http://h/a/{}c", "../".repeat(n / 3)),
        ),
        ("dotted_host", format!("http://{}com/", "a.".repeat(n / 2))),
        ("punycode_label", format!("https://xn--{}/", "a".repeat(n))),
        (
            "unicode_label",
            format!("https://{}.com/", "é".repeat(n / 2)),
        ),
        ("ipv6_colons", format!("http://[{}]/", ":".repeat(n))),
        ("percents", format!("http://h/{}", "%".repeat(n))),
        ("bad_escapes", format!("http://h/?{}", "%zz".repeat(n / 3))),
        ("tripling", format!("http://h/{}", "\u{7F}".repeat(n))),
        (
            "tabs_newlines",
            format!("http://h/{}x", "\t\n".repeat(n / 2)),
        ),
        ("at_signs", format!("http://{}@h/", "u@".repeat(n / 2))),
    ]
}

fn hostile(c: &mut Criterion) {
    for (i, (name, _)) in shapes(BASE).into_iter().enumerate() {
        let mut group = c.benchmark_group(format!("hostile_{name}"));
        for factor in [1usize, 4, 16] {
            let input = shapes(BASE * factor).swap_remove(i).1;
            group.throughput(Throughput::Bytes(input.len() as u64));
            group.bench_with_input(BenchmarkId::from_parameter(factor), &input, |b, input| {
                b.iter(|| urlsift::Url::parse(black_box(input)).map(|u| u.href().len()))
            });
        }
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(10)
        .warm_up_time(Duration::from_millis(200))
        .measurement_time(Duration::from_millis(600));
    targets = hostile
}
criterion_main!(benches);
