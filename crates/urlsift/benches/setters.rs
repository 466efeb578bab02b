//! Setters and long query strings: urlsift against the `ada-url` crate.
//! Each setter benchmark clones a parsed URL and sets one component, so
//! both engines do the same clone + set work.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};

const HREF: &str = "https://user:pass@www.example.com:8080/a/b/c/index.html?q=1&lang=en#top";

fn setters(c: &mut Criterion) {
    let ours = urlsift::Url::parse(HREF).unwrap();
    let ada = ada_url::Url::parse(HREF, None).unwrap();
    let cases: [(&str, &str); 6] = [
        ("host", "static.example.org:9090"),
        ("hostname", "cdn.example.net"),
        ("pathname", "/x/y/../z/file name.png"),
        ("search", "?page=2&sort=desc"),
        ("hash", "#section-2"),
        ("port", "8443"),
    ];
    for (name, value) in cases {
        // Both engines must produce the same href before being timed.
        let mut a = ours.clone();
        let mut b = ada.clone();
        set_ours(&mut a, name, value);
        set_ada(&mut b, name, value);
        assert_eq!(a.href(), b.href(), "{name} setters disagree");
        let mut group = c.benchmark_group(format!("set_{name}"));
        group.bench_function("urlsift", |bench| {
            bench.iter(|| {
                let mut u = ours.clone();
                set_ours(&mut u, name, black_box(value));
                u.href().len()
            })
        });
        group.bench_function("ada", |bench| {
            bench.iter(|| {
                let mut u = ada.clone();
                set_ada(&mut u, name, black_box(value));
                u.href().len()
            })
        });
        group.finish();
    }
}

fn set_ours(u: &mut urlsift::Url, name: &str, v: &str) {
    match name {
        "host" => u.set_host(v),
        "hostname" => u.set_hostname(v),
        "pathname" => u.set_pathname(v),
        "search" => u.set_search(v),
        "hash" => u.set_hash(v),
        "port" => u.set_port(v),
        _ => unreachable!(),
    }
}

fn set_ada(u: &mut ada_url::Url, name: &str, v: &str) {
    let _ = match name {
        "host" => u.set_host(Some(v)),
        "hostname" => u.set_hostname(Some(v)),
        "pathname" => u.set_pathname(Some(v)),
        "search" => {
            u.set_search(Some(v));
            Ok(())
        }
        "hash" => {
            u.set_hash(Some(v));
            Ok(())
        }
        "port" => u.set_port(Some(v)),
        _ => unreachable!(),
    };
}

fn long_query(c: &mut Criterion) {
    let query: String = (0..500)
        .map(|i| format!("key{i}=value+{i}%20with%2Fslash&utm_{i}=caf%C3%A9"))
        .collect::<Vec<_>>()
        .join("&");
    let ours = urlsift::UrlSearchParams::parse(&query);
    let ada = ada_url::UrlSearchParams::parse(query.as_str()).unwrap();
    assert_eq!(ours.to_string(), ada.to_string(), "serializations disagree");
    let mut group = c.benchmark_group("long_query_parse_serialize");
    group.throughput(criterion::Throughput::Bytes(query.len() as u64));
    group.bench_function("urlsift", |b| {
        b.iter(|| {
            urlsift::UrlSearchParams::parse(black_box(&query))
                .to_string()
                .len()
        })
    });
    group.bench_function("ada", |b| {
        b.iter(|| {
            ada_url::UrlSearchParams::parse(black_box(query.as_str()))
                .unwrap()
                .to_string()
                .len()
        })
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    targets = setters, long_query
}
criterion_main!(benches);
