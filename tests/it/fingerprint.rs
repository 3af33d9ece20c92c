//! The fingerprint port against vectors taken from GitHub's own implementation
//! (`tests/data/fingerprint/*.txt` with `*.expected`: `<line> <hash>` per line).

use hippo_packs::core::fingerprint::line_hashes;

fn expected(name: &str) -> Vec<(usize, String)> {
    let path = format!(
        "{}/tests/data/fingerprint/{name}.expected",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| {
            let (n, h) = l.split_once(' ').unwrap();
            (n.parse().unwrap(), h.to_string())
        })
        .collect()
}

fn input(name: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/tests/data/fingerprint/{name}.txt",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

/// Compares every line's hash; returns the mismatches.
fn mismatches(bytes: &[u8], want: &[(usize, String)]) -> Vec<String> {
    let got = line_hashes(bytes);
    let mut bad = Vec::new();
    if got.len() != want.len() {
        bad.push(format!(
            "{} lines hashed, {} expected",
            got.len(),
            want.len()
        ));
    }
    for (line, hash) in want {
        match got.get(line - 1) {
            Some(h) if h == hash => {}
            other => bad.push(format!("line {line}: got {other:?}, want {hash}")),
        }
    }
    bad
}

#[test]
fn small_vector_matches() {
    let bad = mismatches(&input("small"), &expected("small"));
    assert!(bad.is_empty(), "{bad:#?}");
}

#[test]
fn large_vector_matches() {
    let bad = mismatches(&input("large"), &expected("large"));
    assert!(bad.is_empty(), "{bad:#?}");
}

#[test]
fn vectors_keep_their_line_endings() {
    // The vectors hold CRLF line endings on purpose; a checkout that converted them would test
    // nothing (see .gitattributes).
    assert!(input("small").windows(2).any(|w| w == b"\r\n"));
    assert!(input("large").windows(2).any(|w| w == b"\r\n"));
}

#[test]
fn control_a_wrong_hash_or_a_changed_input_is_caught() {
    let mut want = expected("small");
    want[2].1 = "deadbeef:1".into();
    assert_eq!(mismatches(&input("small"), &want).len(), 1);
    // One changed character changes the hash of every line whose window reaches it.
    let mut bytes = input("large");
    let at = (bytes.len() / 2..bytes.len())
        .find(|&i| bytes[i].is_ascii_alphanumeric())
        .unwrap();
    bytes[at] = if bytes[at] == b'x' { b'y' } else { b'x' };
    assert!(!mismatches(&bytes, &expected("large")).is_empty());
}
