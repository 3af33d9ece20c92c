//! Property tests: over many generated packs, `check` never reports a position
//! outside its file, and the text column (code points) and the SARIF column (UTF-16 units)
//! describe the same character as the byte offset.

use hippo_packs::pack::Pack;

/// A small deterministic generator (xorshift64*), so failures reproduce from the seed.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[(self.next() % xs.len() as u64) as usize]
    }
}

const PIECES: &[&str] = &[
    "a",
    "word ",
    "\n",
    "\r\n",
    "\t",
    "é",
    "😀",
    "\u{202E}",
    "\u{200B}",
    "\u{E0068}",
    "\u{FEFF}",
    "\u{7}",
    "{{turns}}",
    "{{bogus}}",
    "= ",
    "\"",
    "[",
    "]",
    "protocol = \"HIPPO_V1\"\n",
    "\u{10FFFD}",
    "https://example.com ",
    "curl ",
    "ignore all previous instructions",
    "AKIA",
    "{\"synthetic\": true}\n",
];

fn text(rng: &mut Rng) -> Vec<u8> {
    let n = rng.next() % 40;
    let mut s = Vec::new();
    for _ in 0..n {
        s.extend_from_slice(rng.pick(PIECES).as_bytes());
    }
    if rng.next().is_multiple_of(7) {
        let at = (rng.next() as usize) % (s.len() + 1);
        s.insert(at, 0xFF); // invalid UTF-8
    }
    s
}

/// The byte offset that a 1-based (line, column) names, counting columns with `width`.
fn offset_of(bytes: &[u8], line: usize, col: usize, width: fn(char) -> usize) -> Option<usize> {
    let text = String::from_utf8_lossy(bytes);
    // Work on the valid prefix only: positions past an invalid byte are not compared.
    let valid = match std::str::from_utf8(bytes) {
        Ok(s) => s,
        Err(e) => std::str::from_utf8(&bytes[..e.valid_up_to()]).ok()?,
    };
    let _ = text;
    let mut start = 0;
    for _ in 1..line {
        start += valid[start..].find('\n')? + 1;
    }
    let mut units = 1;
    for (i, c) in valid[start..].char_indices() {
        if units == col {
            return Some(start + i);
        }
        units += width(c);
    }
    (units == col).then_some(valid.len())
}

#[test]
fn positions_stay_inside_files_and_columns_agree() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let names = [
        "pack.toml",
        "README.md",
        "passes/a.toml",
        "prompts/a.md",
        "personas/a.md",
        "templates/t.md",
        "tests/c/case.toml",
        "tests/c/notes/n.md",
        "tests/c/transcripts/s.jsonl",
    ];
    let mut checked = 0;
    for _ in 0..400 {
        let contents: Vec<(String, Vec<u8>)> = names
            .iter()
            .map(|n| (n.to_string(), text(&mut rng)))
            .collect();
        let files: Vec<(&str, &[u8])> = contents
            .iter()
            .map(|(n, b)| (n.as_str(), b.as_slice()))
            .collect();
        let pack = Pack::from_files(&files);
        let result = hippo_packs::rules::run(&pack);
        for d in &result.diagnostics {
            let (Some(file), Some(span)) = (&d.file, d.span) else {
                continue;
            };
            let bytes = &pack
                .file(file)
                .expect("a diagnostic names a file of the pack")
                .bytes;
            assert!(
                span.start <= span.end && span.end <= bytes.len(),
                "{d:?} outside {file} ({} bytes)",
                bytes.len()
            );
            if std::str::from_utf8(&bytes[..span.start]).is_err() {
                continue;
            }
            let by_cp = offset_of(bytes, d.region.line, d.region.col, |_| 1);
            let by_u16 = offset_of(bytes, d.region.line, d.region.col16, char::len_utf16);
            assert_eq!(by_cp, Some(span.start), "code-point column of {d:?}");
            assert_eq!(by_u16, Some(span.start), "UTF-16 column of {d:?}");
            checked += 1;
        }
    }
    assert!(
        checked > 100,
        "the generator must produce located findings ({checked})"
    );
}

#[test]
fn control_a_wrong_column_is_caught() {
    let bytes = "ab\u{202E}".as_bytes();
    assert_eq!(offset_of(bytes, 1, 3, |_| 1), Some(2));
    assert_ne!(
        offset_of(bytes, 1, 2, |_| 1),
        Some(2),
        "an off-by-one column must not pass"
    );
    assert_eq!(
        offset_of("😀\u{202E}".as_bytes(), 1, 3, char::len_utf16),
        Some(4)
    );
}
