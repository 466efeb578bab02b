//! `.warc.zst` as the IIPC text writes it (`spec/warc-zstd.md`): a frame
//! per record, after an optional dictionary frame (magic `0x184D2A5D`,
//! the dictionary plain or itself a zstd frame) that every frame is
//! decoded with, extension frames skipped. Written here from the shared
//! crawl samples' records; read, every subcommand gives what the same
//! records give as plain WARC, at every `-j`, and the `zstd` command
//! (`-D` the dictionary) decodes each file to those records.

use crate::common;
use crate::workdir::*;
use std::io::Read;
use std::process::Command;

/// The records of a `.warc.gz` file of a gzip member per record.
fn records(gz: &[u8]) -> Vec<Vec<u8>> {
    let mut rest = gz;
    let mut out = Vec::new();
    while !rest.is_empty() {
        let mut member = flate2::bufread::GzDecoder::new(rest);
        let mut record = Vec::new();
        member.read_to_end(&mut record).unwrap();
        rest = member.into_inner();
        out.push(record);
    }
    out
}

/// A skippable frame of `magic` holding `data`.
fn skippable(magic: u32, data: &[u8]) -> Vec<u8> {
    let mut frame = magic.to_le_bytes().to_vec();
    frame.extend_from_slice(&(data.len() as u32).to_le_bytes());
    frame.extend_from_slice(data);
    frame
}

/// How a test file is written.
#[derive(Clone, Copy, Debug)]
enum Dict {
    None,
    Plain,
    Compressed,
}

/// `.warc.zst` of `records`, a frame per record (with the content size
/// and checksum the IIPC text asks for), with `dict` in its dictionary
/// frame as `how` says, and an extension frame after every third frame.
fn warc_zst(records: &[Vec<u8>], dict: &[u8], how: Dict) -> Vec<u8> {
    let mut out = Vec::new();
    let mut compressor = match how {
        Dict::None => zstd::bulk::Compressor::new(3).unwrap(),
        _ => zstd::bulk::Compressor::with_dictionary(3, dict).unwrap(),
    };
    compressor.include_checksum(true).unwrap();
    compressor.include_contentsize(true).unwrap();
    match how {
        Dict::None => {}
        Dict::Plain => out.extend(skippable(0x184D2A5D, dict)),
        Dict::Compressed => out.extend(skippable(
            0x184D2A5D,
            &zstd::bulk::compress(dict, 3).unwrap(),
        )),
    }
    for (i, record) in records.iter().enumerate() {
        out.extend(compressor.compress(record).unwrap());
        if i % 3 == 2 {
            out.extend(skippable(0x184D2A50, b"an extension frame"));
        }
    }
    out
}

/// The records of the shared samples `names` and a dictionary of them
/// (as `zstd --train` makes, their first 4 KiB as samples).
fn records_and_dictionary(names: &[&str]) -> (Vec<Vec<u8>>, Vec<u8>) {
    let dir = common::crawl_samples_dir();
    let mut all = Vec::new();
    for name in names {
        all.extend(records(&std::fs::read(dir.join(name)).unwrap()));
    }
    let samples: Vec<&[u8]> = all.iter().map(|r| &r[..r.len().min(4096)]).collect();
    let dict = zstd::dict::from_samples(&samples, 8 << 10).unwrap();
    (all, dict)
}

#[test]
fn warc_zst_with_and_without_a_dictionary_reads_as_the_plain_warc() {
    let dir = common::crawl_samples_dir();
    let mut all = Vec::new();
    for name in [
        "pywb/iana.warc.gz",
        "warcio/example.warc.gz",
        "pywb/example-wpull.warc.gz",
    ] {
        all.extend(records(&std::fs::read(dir.join(name)).unwrap()));
    }
    assert!(all.len() >= 20, "{} records", all.len());
    // A dictionary of the records (zstd --train's), small ones as samples.
    let samples: Vec<&[u8]> = all.iter().map(|r| &r[..r.len().min(4096)]).collect();
    let dict = zstd::dict::from_samples(&samples, 8 << 10).unwrap();
    let w = Workdir::new();
    w.create("dict", &dict);
    w.create("plain.warc", all.concat());
    let plain = w.path("plain.warc").display().to_string();
    let jobs: [&[&str]; 3] = [
        &["extract", "--fields", "href,hostname"],
        &["links", "--fields", "from,to,tag"],
        &["normalize"],
    ];
    for how in [Dict::None, Dict::Plain, Dict::Compressed] {
        // (Named `.zst` only: the format is told by the content.)
        let name = format!("{how:?}.warc.zst");
        let bytes = warc_zst(&all, &dict, how);
        w.create(&name, &bytes);
        if !matches!(how, Dict::None) {
            assert_eq!(&bytes[..4], &[0x5d, 0x2a, 0x4d, 0x18]);
        }
        // The zstd command decodes it, frame after frame, to the records.
        let mut zstd = Command::new("zstd");
        zstd.args(["-d", "-c", "-q"]);
        if !matches!(how, Dict::None) {
            zstd.arg("-D").arg(w.path("dict"));
        }
        let out = zstd
            .arg(w.path(&name))
            .output()
            .expect("the zstd command (the oracle) runs");
        assert!(out.status.success(), "{how:?}: zstd: {}", stderr(&out));
        assert!(
            out.stdout == all.concat(),
            "{how:?}: zstd decodes other bytes"
        );
        let zst = w.path(&name).display().to_string();
        for job in jobs {
            let want = w.run(&[job, &[plain.as_str(), "-q"]].concat(), None);
            assert!(want.status.success() && !want.stdout.is_empty(), "{job:?}");
            for j in ["-j1", "-j3"] {
                let got = w.run(&[job, &[zst.as_str(), "-q", j]].concat(), None);
                assert_eq!(
                    got.status.code(),
                    Some(0),
                    "{how:?} {job:?} {j}: {}",
                    stderr(&got)
                );
                assert!(
                    got.stdout == want.stdout,
                    "{how:?} {job:?} {j}: output differs from the plain WARC's"
                );
            }
        }
    }
}

/// A damaged frame costs its record alone, named; a dictionary frame that
/// holds no dictionary is named as such.
#[test]
fn a_damaged_frame_of_a_warc_zst_costs_its_record() {
    let (all, dict) = records_and_dictionary(&["pywb/iana.warc.gz"]);
    let w = Workdir::new();
    w.create("plain.warc", all.concat());
    let want = w.stdout(&["extract", "--fields", "href", "-q", "plain.warc"]);
    let mut bytes = warc_zst(&all, &dict, Dict::Plain);
    // Damage inside the middle of the file's frames.
    let at = bytes.len() / 2;
    bytes[at] ^= 0x20;
    w.create("damaged.warc.zst", &bytes);
    let got = w.run(
        &["extract", "--fields", "href", "-q", "damaged.warc.zst"],
        None,
    );
    let err = stderr(&got);
    assert_ne!(got.status.code(), Some(0), "{err}");
    assert!(
        err.contains("damaged.warc.zst") && err.contains("frame"),
        "{err}"
    );
    let got = String::from_utf8(got.stdout).unwrap();
    let (want, got): (Vec<&str>, Vec<&str>) = (want.lines().collect(), got.lines().collect());
    // Every record but the damaged one's.
    assert!(
        got.len() + 3 >= want.len() && got.len() < want.len(),
        "{} of {}",
        got.len(),
        want.len()
    );
    assert!(got.iter().all(|l| want.contains(l)));
    // A dictionary frame without a dictionary.
    let mut bad = skippable(0x184D2A5D, b"no dictionary here");
    bad.extend(warc_zst(&all[..2], &dict, Dict::None));
    w.create("nodict.warc.zst", &bad);
    let out = w.run(
        &["extract", "--fields", "href", "-q", "nodict.warc.zst"],
        None,
    );
    assert!(
        stderr(&out).contains("holds no zstd dictionary"),
        "{}",
        stderr(&out)
    );
}

/// `index` of a `.warc.zst`: the lines of the same records as plain WARC,
/// each placed at its record's frames, which alone (with the dictionary)
/// decode to the record.
#[test]
fn index_of_a_warc_zst_places_each_record_at_its_frames() {
    let (all, dict) = records_and_dictionary(&["pywb/iana.warc.gz"]);
    let w = Workdir::new();
    w.create("x.warc", all.concat());
    let bytes = warc_zst(&all, &dict, Dict::Compressed);
    w.create("x.warc.zst", &bytes);
    let plain = w.stdout(&["index", "-q", "x.warc"]);
    let zst = w.stdout(&["index", "-q", "x.warc.zst"]);
    let place = |line: &str| {
        let json: serde_json::Value =
            serde_json::from_str(&line[line.find('{').unwrap()..]).unwrap();
        let n = |k: &str| json[k].as_str().unwrap().parse::<usize>().unwrap();
        let mut rest = json.clone();
        for k in ["length", "offset", "filename"] {
            rest.as_object_mut().unwrap().remove(k);
        }
        (
            line[..line.find('{').unwrap()].to_string(),
            rest,
            n("offset"),
            n("length"),
        )
    };
    let (plain, zst): (Vec<_>, Vec<_>) = (
        plain.lines().map(place).collect(),
        zst.lines().map(place).collect(),
    );
    assert!(plain.len() > 100, "{} lines", plain.len());
    assert_eq!(plain.len(), zst.len());
    let mut decoder = zstd::bulk::Decompressor::with_dictionary(&dict).unwrap();
    for (p, z) in plain.iter().zip(&zst) {
        assert_eq!((&p.0, &p.1), (&z.0, &z.1));
        let frames = &bytes[z.2..z.2 + z.3];
        let record = decoder.decompress(frames, 1 << 24).unwrap();
        assert!(
            all.contains(&record),
            "the frames at {} are not one record",
            z.2
        );
        assert!(String::from_utf8_lossy(&record).contains(p.1["url"].as_str().unwrap()));
    }
}

/// A `.warc.zst` whose dictionary frame is gone: every frame fails alike;
/// the first few are named, the rest counted, and the reason says what is
/// missing.
#[test]
fn frames_without_their_dictionary_are_named_once_and_counted() {
    let (all, dict) = records_and_dictionary(&["pywb/iana.warc.gz"]);
    let w = Workdir::new();
    let mut bytes = warc_zst(&all, &dict, Dict::Plain);
    let len = u32::from_le_bytes(bytes[4..8].try_into().unwrap()) as usize;
    bytes.drain(..8 + len);
    w.create("nodict.warc.zst", &bytes);
    for j in ["-j1", "-j3"] {
        let out = w.run(&["normalize", "nodict.warc.zst", j], None);
        assert_eq!(out.status.code(), Some(2));
        let err = stderr(&out);
        let named = err
            .lines()
            .filter(|l| l.starts_with("urlsift: cannot read"))
            .count();
        assert_eq!(named, 6, "{j}: five faults and a count: {err}");
        assert!(
            err.contains("does not start with a dictionary frame"),
            "{err}"
        );
        let more = format!(
            "{} more faults like these (Dictionary mismatch",
            all.len() - 5
        );
        assert!(err.contains(&more), "{j}: {err}");
    }
}
