//! Damaged compressed input, as the command reads it: a gzip member or
//! zstd frame that fails its check never reaches the output. Its decoded
//! bytes are set aside (every line a `damaged-input` reject), the line a
//! gap cuts is a reject too, and the lines around the damage come out as
//! the undamaged file gives them. Damage that only the CRC-32 or checksum
//! sees used to be read as records: wrong URLs, valid ones among them,
//! went out as if they were in the file.

use crate::workdir::*;
use std::collections::HashSet;
use std::io::Write;

/// `text` cut into `n` pieces of about equal size: at line ends when
/// `at_lines`, else anywhere (as `split -b` cuts).
fn cut(text: &[u8], n: usize, at_lines: bool) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut rest = text;
    for k in (1..=n).rev() {
        let mut at = rest.len() / k;
        while at_lines && at < rest.len() && rest[at - 1] != b'\n' {
            at += 1;
        }
        // (Not at a line end, when asked: move off one.)
        if !at_lines && at < rest.len() && rest[at - 1] == b'\n' {
            at += 1;
        }
        let (piece, tail) = rest.split_at(at);
        out.push(piece);
        rest = tail;
    }
    out
}

/// Raw DEFLATE data inflated without any check: every byte the inflater
/// makes of it (those before a fault included), and whether it got
/// through.
fn inflate_unchecked(deflate: &[u8]) -> (Vec<u8>, bool) {
    let mut inflate = flate2::Decompress::new(false);
    let mut out = vec![0; 8 << 20];
    let ok = inflate
        .decompress(deflate, &mut out, flate2::FlushDecompress::Finish)
        .is_ok_and(|s| s == flate2::Status::StreamEnd);
    out.truncate(inflate.total_out() as usize);
    (out, ok)
}

/// How many non-empty lines `pieces` hold, each piece cut on its own.
fn lines_in(pieces: &[&[u8]]) -> usize {
    pieces
        .iter()
        .map(|p| p.split(|&b| b == b'\n').filter(|l| !l.is_empty()).count())
        .sum()
}

/// A gzip member of `data` (no header fields: its DEFLATE data starts at
/// byte 10 and ends 8 bytes before its end).
fn member(data: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(data).unwrap();
    gz.finish().unwrap()
}

/// Damages `m`'s DEFLATE data so that the inflater notices (`seen`) or
/// so that only the CRC-32 does, with the decoded length unchanged: the
/// damaged member and what it decodes to.
fn damage(m: &[u8], seen: bool) -> (Vec<u8>, Vec<u8>) {
    let body = 10..m.len() - 8;
    let original = inflate_unchecked(&m[body.clone()]).0;
    for at in body.clone().skip(body.len() / 3) {
        let mut bad = m.to_vec();
        bad[at] ^= 0x04;
        let (out, ok) = inflate_unchecked(&bad[body.clone()]);
        let crc_only = ok && out.len() == original.len() && out != original;
        let wanted = if seen { !ok } else { crc_only };
        if wanted {
            return (bad, out);
        }
    }
    panic!("no damage of that kind found");
}

/// The normalized lines of `text`, as the command gives them.
fn normalize(wd: &Workdir, text: &[u8]) -> String {
    wd.create("plain.txt", text);
    wd.stdout(&["normalize", "-q", "plain.txt"])
}

/// Runs `normalize --rejects` on `file` at -j1, and at -j2 and -j8 with
/// small chunks (which must agree: the parallel member decoders and the
/// workers see the damage as the in-order decoder does); returns the
/// output, the rejects and stderr.
fn run(wd: &Workdir, file: &str) -> (String, String, String) {
    let mut seen = Vec::new();
    let small = |j| [j, "--chunk-size", "10K"];
    for args in [&["-j1"][..], &small("-j2"), &small("-j8")] {
        let mut cmd = vec!["normalize", file, "--rejects", "rejects.tsv"];
        cmd.extend_from_slice(args);
        let out = wd.run(&cmd, None);
        assert_eq!(out.status.code(), Some(2), "{file}: {}", stderr(&out));
        let rejects = String::from_utf8_lossy(&wd.read("rejects.tsv")).into_owned();
        let err = stderr(&out);
        seen.push((String::from_utf8(out.stdout).unwrap(), rejects, err));
    }
    for other in &seen[1..] {
        assert!(seen[0].0 == other.0, "{file}: output depends on -j");
        assert!(seen[0].1 == other.1, "{file}: rejects depend on -j");
    }
    seen.swap_remove(0)
}

/// The rejects file's reasons (its third column), counted.
fn reasons(rejects: &str) -> Vec<(String, usize)> {
    let mut counts = std::collections::BTreeMap::new();
    for line in rejects.lines() {
        let reason = line.split('\t').nth(3).unwrap_or_default();
        *counts.entry(reason.to_string()).or_insert(0) += 1;
    }
    counts.into_iter().collect()
}

/// The reasons rejects give for bytes set aside as damaged, and for the
/// rest of a line whose start a gap took.
const DAMAGED: &str =
    "decoded from a damaged gzip member or zstd frame (its check failed): set aside, not read";
const TRUNCATED: &str =
    "cut off by a read error (the input ended, or decoding skipped damaged data there)";

/// How many rejects give `reason` (counted by [`reasons`]; 0 if none).
fn rejected(counts: &[(String, usize)], reason: &str) -> usize {
    counts.iter().find(|(r, _)| r == reason).map_or(0, |r| r.1)
}

/// Where the line holding byte `at` of `text` starts, and where the one
/// after it starts.
fn line_around(text: &[u8], at: usize) -> (usize, usize) {
    let start = text[..at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let end = text[at..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(text.len(), |i| at + i + 1);
    (start, end)
}

/// Damage only the CRC-32 sees, in a member cut out of the middle of a
/// line: the lines before the member's line and after the next member's
/// first line are read as in the undamaged file; the member's bytes (with
/// the line it finishes, and the line the next member finishes for it)
/// are damaged-input rejects; nothing else is output.
#[test]
fn damage_only_the_crc_sees_is_set_aside_not_read() {
    let wd = Workdir::new();
    let text = std::fs::read(sample()).unwrap();
    let parts = cut(&text, 5, false);
    let mut members: Vec<Vec<u8>> = parts.iter().map(|p| member(p)).collect();
    let (bad, decoded) = damage(&members[2], false);
    members[2] = bad;
    wd.create("d.gz", members.concat());
    let (out, rejects, err) = run(&wd, "d.gz");
    assert!(err.contains("CRC-32 mismatch"), "{err}");

    assert!(
        err.contains(&format!(
            "the {} bytes it decoded to are set aside as damaged",
            decoded.len()
        )),
        "{err}"
    );
    // The damaged member spans these bytes of the text.
    let from = parts[..2].iter().map(|p| p.len()).sum::<usize>();
    let to = from + parts[2].len();
    let (before, _) = line_around(&text, from);
    let (_, after) = line_around(&text, to);
    // Lines are counted as in the decoded bytes (as `zcat` counts them).
    let decoded_text = [&text[..from], &decoded[..], &text[to..]].concat();
    let ends = decoded_text.iter().filter(|&&b| b == b'\n').count();
    let counted = ends + usize::from(!decoded_text.ends_with(b"\n"));
    assert!(
        err.contains(&format!("{counted} lines from 1 input")),
        "{counted}: {err}"
    );
    let expected = normalize(&wd, &text[..before]) + &normalize(&wd, &text[after..]);
    assert!(
        out == expected,
        "the lines around the damage, and only those"
    );
    // The set-aside lines: what the damaged member decoded to, with the
    // line it finishes and the rest of the line it ends inside, read after
    // the gap (one reject for that line, as `zcat` would count it).
    let lines = lines_in(&[&[&text[before..from], &decoded[..], &text[to..after]].concat()]);
    assert!(lines > 0);
    assert_eq!(rejected(&reasons(&rejects), DAMAGED), lines);
}

/// Damage the inflater sees loses the rest of its member (it cannot be
/// decoded) and nothing more: with members cut at line ends, the next
/// member's first line is read; cut anywhere, it may be the rest of a line
/// the gap took, so it is a truncated-input reject. Never is a line that
/// is not in the file output.
#[test]
fn damage_the_inflater_sees_loses_only_its_member() {
    let wd = Workdir::new();
    let text = std::fs::read(sample()).unwrap();
    let valid: HashSet<String> = normalize(&wd, &text).lines().map(str::to_string).collect();
    for at_lines in [true, false] {
        let parts = cut(&text, 6, at_lines);
        let mut members: Vec<Vec<u8>> = parts.iter().map(|p| member(p)).collect();
        let (bad, decoded) = damage(&members[3], true);
        members[3] = bad;
        wd.create("d.gz", members.concat());
        let (out, rejects, err) = run(&wd, "d.gz");
        assert!(err.contains("invalid DEFLATE data"), "{err}");
        assert!(
            out.lines().all(|l| valid.contains(l)),
            "a line not in the file went out"
        );
        let from = parts[..3].iter().map(|p| p.len()).sum::<usize>();
        let next = from + parts[3].len();
        let (before, _) = line_around(&text, from);
        let counts = reasons(&rejects);
        let truncated = rejected(&counts, TRUNCATED);
        let after = if at_lines {
            assert_eq!(truncated, 0, "members cut at lines: nothing else is lost");
            next
        } else {
            assert_eq!(truncated, 1, "the next member's first line: {counts:?}");
            line_around(&text, next).1
        };
        let expected = normalize(&wd, &text[..before]) + &normalize(&wd, &text[after..]);
        assert!(
            out == expected,
            "at lines {at_lines}: the lines around the damage"
        );
        // What the damaged member decoded to before the inflater stopped
        // (with the line it finishes) is set aside.
        let lines = lines_in(&[&[&text[before..from], &decoded[..]].concat()]);
        assert!(lines > 0);
        assert_eq!(rejected(&counts, DAMAGED), lines);
    }
}

/// A zstd frame whose checksum fails is set aside the same way; the other
/// frames of the file are read whole.
#[test]
fn a_zstd_frame_whose_checksum_fails_is_set_aside() {
    let wd = Workdir::new();
    let text = std::fs::read(sample()).unwrap();
    let parts = cut(&text, 4, true);
    let frame = |data: &[u8], level: i32| {
        let mut e = zstd::Encoder::new(Vec::new(), level).unwrap();
        e.include_checksum(true).unwrap();
        e.write_all(data).unwrap();
        e.finish().unwrap()
    };
    let mut frames: Vec<Vec<u8>> = parts.iter().map(|p| frame(p, 3)).collect();
    // A flipped bit in the frame's checksum (its last four bytes): every
    // block decodes, and only the checksum disagrees.
    let n = frames[2].len();
    frames[2][n - 2] ^= 0x10;
    let decoded = parts[2];
    wd.create("d.zst", frames.concat());
    let (out, rejects, err) = run(&wd, "d.zst");
    assert!(err.contains("d.zst: zstd data is corrupt at byte"), "{err}");
    assert!(err.contains("set aside as damaged"), "{err}");
    let expected = normalize(&wd, &[parts[0], parts[1], parts[3]].concat());
    assert!(
        out == expected,
        "frames cut at lines: every other line is read"
    );
    let damaged = rejected(&reasons(&rejects), DAMAGED);
    let lines = decoded
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .count();
    assert_eq!(
        damaged, lines,
        "every line of the damaged frame is a reject"
    );
}

/// A `.warc.gz` of a member per record whose member fails its CRC-32 (a
/// damaged trailer: every byte decodes, the check fails): the record is
/// one damaged-input reject, at its offset, and is not read; every other
/// record is.
#[test]
fn a_warc_gz_record_that_fails_its_crc_is_one_reject() {
    let wd = Workdir::new();
    let records: Vec<String> = (0..50)
        .map(|i| {
            let payload = format!("<p>{}</p>", "z".repeat(i * 7));
            format!(
                "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: https://w{i}.example/\r\n\
                 Content-Length: {}\r\n\r\n{payload}\r\n\r\n",
                payload.len()
            )
        })
        .collect();
    let damaged = 17;
    let mut gz = Vec::new();
    for (i, r) in records.iter().enumerate() {
        let mut m = member(r.as_bytes());
        if i == damaged {
            let crc = m.len() - 8;
            m[crc] ^= 0x01;
        }
        gz.extend(m);
    }
    wd.create("d.warc.gz", &gz);
    let out = wd.run(&["normalize", "d.warc.gz", "--rejects", "r.tsv"], None);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("CRC-32 mismatch"), "{}", stderr(&out));
    let expected: String = (0..50)
        .filter(|&i| i != damaged)
        .map(|i| format!("https://w{i}.example/\n"))
        .collect();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), expected);
    let rejects = String::from_utf8_lossy(&wd.read("r.tsv")).into_owned();
    let fields: Vec<&str> = rejects
        .lines()
        .next()
        .unwrap_or_default()
        .split('\t')
        .collect();
    assert_eq!(rejects.lines().count(), 1, "{rejects}");
    let offset: usize = records[..damaged].iter().map(String::len).sum();
    assert_eq!(fields[2], offset.to_string(), "{rejects}");
    assert_eq!(fields[3], DAMAGED);
    assert!(fields[4].contains("https://w17.example/"), "{rejects}");
}

/// A small deterministic generator (xorshift), for the damage sweep.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Damage anywhere, in any format, any codec, cut into units at lines or
/// anywhere: whatever the reader makes of it, nothing goes out that the
/// undamaged file does not give, and -j1 and -j2 with small chunks agree.
/// (The record formats are written back: a CSV or JSON line goes out only
/// as the undamaged file's normalize gives it.)
#[test]
fn no_damage_anywhere_puts_a_record_out_that_the_file_does_not_hold() {
    let wd = Workdir::new();
    let sample = std::fs::read(sample()).unwrap();
    let urls: Vec<&[u8]> = sample.split(|&b| b == b'\n').take(3000).collect();
    let lines: Vec<u8> = urls.join(&b'\n');
    let csv: Vec<u8> = std::iter::once(b"id,url,note".to_vec())
        .chain(urls.iter().enumerate().map(|(i, u)| {
            let mut row = format!("{i},\"").into_bytes();
            row.extend(
                u.iter()
                    .flat_map(|&b| if b == b'"' { vec![b'"', b'"'] } else { vec![b] }),
            );
            row.extend_from_slice(format!("\",\"n, {i}\"").as_bytes());
            row
        }))
        .collect::<Vec<_>>()
        .join(&b'\n');
    let jsonl: Vec<u8> = urls
        .iter()
        .enumerate()
        .filter_map(|(i, u)| {
            let u = std::str::from_utf8(u).ok()?;
            Some(
                format!(
                    "{{\"n\":{i},\"url\":{}}}",
                    serde_json::to_string(u).unwrap()
                )
                .into_bytes(),
            )
        })
        .collect::<Vec<_>>()
        .join(&b'\n');
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for (ext, text) in [("txt", &lines), ("csv", &csv), ("jsonl", &jsonl)] {
        let plain = format!("plain.{ext}");
        wd.create(&plain, text);
        let valid: HashSet<String> = wd
            .stdout(&["normalize", "-q", &plain])
            .lines()
            .map(str::to_string)
            .collect();
        for case in 0..40 {
            let at_lines = case % 2 == 0;
            let gz = case % 4 < 2;
            let n = 2 + rng.below(6);
            let parts = cut(text, n, at_lines);
            let mut units: Vec<Vec<u8>> = parts
                .iter()
                .map(|p| {
                    if gz {
                        member(p)
                    } else {
                        // With a checksum, as the zstd tool writes them
                        // (without one, damage that decodes is invisible).
                        let mut e = zstd::Encoder::new(Vec::new(), 3).unwrap();
                        e.include_checksum(true).unwrap();
                        e.write_all(p).unwrap();
                        e.finish().unwrap()
                    }
                })
                .collect();
            // One unit damaged, or (one case in three) it and the next,
            // so that a gap can follow a gap before any line is read.
            let unit = rng.below(n);
            let mut at = 0;
            let count = 1 + usize::from(case % 3 == 0);
            for u in units.iter_mut().skip(unit).take(count) {
                at = rng.below(u.len());
                for k in 0..1 + rng.below(8) {
                    if at + k < u.len() {
                        u[at + k] ^= 1 << rng.below(8);
                    }
                }
            }
            let name = format!("d.{ext}.{}", if gz { "gz" } else { "zst" });
            wd.create(&name, units.concat());
            let mut outs = Vec::new();
            for args in [&["-j1"][..], &["-j2", "--chunk-size", "1K"]] {
                let mut cmd = vec!["normalize", "-q", &name];
                cmd.extend_from_slice(args);
                let out = wd.run(&cmd, None);
                let what = format!(
                    "{name} case {case}: unit {unit} of {n}, byte {at}, status {:?}: {}",
                    out.status.code(),
                    stderr(&out).lines().last().unwrap_or_default()
                );
                assert!(
                    matches!(out.status.code(), Some(0 | 2)),
                    "{what}: {}",
                    stderr(&out)
                );
                let text = String::from_utf8_lossy(&out.stdout).into_owned();
                for line in text.lines() {
                    assert!(valid.contains(line), "{what}: {line:?} is not in the file");
                }
                outs.push(text);
            }
            assert!(
                outs[0] == outs[1],
                "{name} case {case}: output depends on -j"
            );
        }
    }
}

/// A CSV whose header row is in a member that fails its check cannot be
/// read on (a row after the gap would be taken for the header): the
/// member's lines are rejects, the message says why and how to read on,
/// and with `--no-header --field N` the rows after it are read.
#[test]
fn a_csv_whose_header_is_damaged_stops_with_a_way_on() {
    let wd = Workdir::new();
    let rows: String = (0..3000)
        .map(|i| format!("{i},https://h{}.example/p{i},n{i}\n", i % 50))
        .collect();
    let text = format!("id,url,note\n{rows}");
    let parts = cut(text.as_bytes(), 3, true);
    let mut members: Vec<Vec<u8>> = parts.iter().map(|p| member(p)).collect();
    let crc = members[0].len() - 8;
    members[0][crc] ^= 0x01;
    wd.create("d.csv.gz", members.concat());
    let out = wd.run(&["normalize", "d.csv.gz", "--rejects", "r.tsv"], None);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    let err = stderr(&out);
    assert!(
        err.contains("the rest is not read, as the header row was in what was lost")
            && err.contains("--no-header --field N")
            && !err.contains("decoding went on"),
        "{err}"
    );
    let first = parts[0]
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .count();
    assert_eq!(
        String::from_utf8_lossy(&wd.read("r.tsv")).lines().count(),
        first
    );
    let out = wd.run(
        &["normalize", "-q", "--no-header", "--field", "2", "d.csv.gz"],
        None,
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    // Every row after the damaged member but its first: with no member
    // seen whole before the gap, nothing says members end at line ends.
    let expected: String = rows.lines().skip(first).map(|r| format!("{r}\n")).collect();
    assert!(
        String::from_utf8(out.stdout).unwrap() == expected,
        "every row after the damaged member but its first"
    );
}

/// Two members in a row that fail their CRC (their trailers damaged, so
/// every byte decodes), in a file cut mid-line: their bytes, with the
/// lines they finish and begin, are one stretch of rejects; lines are
/// counted as in the decoded bytes; every other line is read.
#[test]
fn two_damaged_members_in_a_row_are_one_stretch_set_aside() {
    let wd = Workdir::new();
    let text = std::fs::read(sample()).unwrap();
    let parts = cut(&text, 5, false);
    let mut members: Vec<Vec<u8>> = parts.iter().map(|p| member(p)).collect();
    for m in &mut members[1..3] {
        let crc = m.len() - 8;
        m[crc] ^= 0x80;
    }
    wd.create("d.gz", members.concat());
    let (out, rejects, err) = run(&wd, "d.gz");
    assert_eq!(err.matches("CRC-32 mismatch").count(), 2, "{err}");
    let from = parts[0].len();
    let to = from + parts[1].len() + parts[2].len();
    let (before, _) = line_around(&text, from);
    let (_, after) = line_around(&text, to);
    let expected = normalize(&wd, &text[..before]) + &normalize(&wd, &text[after..]);
    assert!(
        out == expected,
        "the lines around the damage, and only those"
    );
    let damaged = rejected(&reasons(&rejects), DAMAGED);
    assert_eq!(damaged, lines_in(&[&text[before..after]]));
    let ends = text.iter().filter(|&&b| b == b'\n').count();
    let counted = ends + usize::from(!text.ends_with(b"\n"));
    assert!(
        err.contains(&format!("{counted} lines from 1 input")),
        "{counted}: {err}"
    );
}

/// A `.gz` or `.zst` file whose magic number is damaged is still decoded:
/// its first member or frame is lost, the rest read (it used to be taken
/// for text, its compressed bytes passing for lines). A file of plain text named
/// `.gz` or `.zst` is an error that says so and how to read it.
#[test]
fn a_damaged_magic_number_is_damage_not_text() {
    let wd = Workdir::new();
    let text = std::fs::read(sample()).unwrap();
    let parts = cut(&text, 4, true);
    let zst = |p: &[u8]| {
        let mut e = zstd::Encoder::new(Vec::new(), 3).unwrap();
        e.include_checksum(true).unwrap();
        e.write_all(p).unwrap();
        e.finish().unwrap()
    };
    // (The first line after the gap is a reject: with no unit seen whole
    // before it, nothing says the units were cut at line ends.)
    let after = parts[1..].concat();
    let first_end = after.iter().position(|&b| b == b'\n').unwrap() + 1;
    let rest = normalize(&wd, &after[first_end..]);
    for (name, units, at) in [
        (
            "m.gz",
            parts.iter().map(|p| member(p)).collect::<Vec<_>>(),
            0,
        ),
        ("m.zst", parts.iter().map(|p| zst(p)).collect(), 1),
    ] {
        let mut bytes = units.concat();
        bytes[at] ^= 0x01;
        wd.create(name, &bytes);
        let out = wd.run(&["normalize", name], None);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{name}: {err}");
        assert!(err.contains("decoding went on with the next"), "{err}");
        assert!(
            String::from_utf8(out.stdout).unwrap() == rest,
            "{name}: the other units, whole"
        );
    }
    for name in ["plain.gz", "plain.zst"] {
        wd.create(name, "https://example.com/\n");
        let out = wd.run(&["normalize", name], None);
        assert_eq!(out.status.code(), Some(2));
        assert!(out.stdout.is_empty());
        let ext = name.rsplit('.').next().unwrap();
        assert!(
            stderr(&out).contains(&format!(
                "though the file is named .{ext} (plain text is read as such from standard input)"
            )),
            "{}",
            stderr(&out)
        );
        let out = wd.run(&["normalize", "-"], Some(b"https://example.com/\n"));
        assert_eq!(
            String::from_utf8(out.stdout).unwrap(),
            "https://example.com/\n"
        );
    }
}
