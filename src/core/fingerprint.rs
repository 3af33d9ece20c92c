//! `partialFingerprints.primaryLocationLineHash`, computed exactly as GitHub's `upload-sarif`
//! computes it (docs/output-formats.md), so that the REST upload, which computes none, does not duplicate
//! alerts.
//!
//! The file is read as UTF-16 code units (invalid UTF-8 becoming U+FFFD, as a UTF-8 decoder
//! does). Spaces, tabs and a `\n` right after a `\r` are skipped; `\r` counts as `\n`. A rolling
//! hash runs over a window of the next [`BLOCK`] kept units, `h = 37*h + c - 37^100 * c_out` in
//! wrapping 64-bit arithmetic; a line's hash is the value when the window starts at the line's
//! first kept unit. At the end 65535 is fed, then [`BLOCK`] zeros. The value is
//! `<lowercase hex>:<n>`, `n` counting the equal hashes up to and including this line.
//!
//! Line numbers are the algorithm's own: a line is counted at its first kept unit, so lines are
//! split on `\n`, `\r\n` and a lone `\r`, and the end of the file opens one more line.

const BLOCK: usize = 100;
const MOD: u64 = 37;
const EOF: u16 = 65535;

/// The hashes of every line of `bytes` (index 0 is line 1), for a file read whole.
pub fn line_hashes(bytes: &[u8]) -> Vec<String> {
    hash_units(&units(bytes), true)
}

/// The hashes of the first lines of a file of which `bytes` is only the first part: a line is
/// known when its whole window lies inside that part (index 0 is line 1).
pub(crate) fn known_line_hashes(bytes: &[u8]) -> Vec<String> {
    hash_units(&units(bytes), false)
}

/// The hash of one line (1-based) of a file, or `None` when it cannot be known (`complete`
/// false: `bytes` is only the file's first part).
#[cfg(test)]
fn line_hash(bytes: &[u8], complete: bool, line: usize) -> Option<String> {
    let hashes = if complete {
        line_hashes(bytes)
    } else {
        known_line_hashes(bytes)
    };
    hashes.into_iter().nth(line.checked_sub(1)?)
}

/// The hashes of the lines whose window is complete; with `finish`, the end marker and the
/// padding close every remaining line. Without it, the last unit read is never inside an
/// emitted window, so a character cut in half at the end of a partial read cannot matter.
fn hash_units(input: &[u16], finish: bool) -> Vec<String> {
    let first_mod = (0..BLOCK).fold(1u64, |m, _| m.wrapping_mul(MOD));
    let mut st = State {
        window: [0; BLOCK],
        line_numbers: [0; BLOCK],
        hash: 0,
        first_mod,
        index: 0,
        line_number: 0,
        line_start: true,
        prev_cr: false,
        counts: std::collections::HashMap::new(),
        out: Vec::new(),
    };
    for &c in input {
        st.process(c);
    }
    if finish {
        st.process(EOF);
        for _ in 0..BLOCK {
            st.emit_if_due();
            st.update(0);
        }
    }
    st.out
}

struct State {
    window: [u16; BLOCK],
    /// The line that starts at this window slot, or 0.
    line_numbers: [usize; BLOCK],
    hash: u64,
    first_mod: u64,
    index: usize,
    line_number: usize,
    line_start: bool,
    prev_cr: bool,
    counts: std::collections::HashMap<u64, usize>,
    out: Vec<String>,
}

impl State {
    fn process(&mut self, c: u16) {
        const SPACE: u16 = b' ' as u16;
        const TAB: u16 = b'\t' as u16;
        const LF: u16 = b'\n' as u16;
        const CR: u16 = b'\r' as u16;
        if c == SPACE || c == TAB || (self.prev_cr && c == LF) {
            self.prev_cr = false;
            return;
        }
        let c = if c == CR {
            self.prev_cr = true;
            LF
        } else {
            self.prev_cr = false;
            c
        };
        self.emit_if_due();
        if self.line_start {
            self.line_start = false;
            self.line_number += 1;
            self.line_numbers[self.index] = self.line_number;
        }
        if c == LF {
            self.line_start = true;
        }
        self.update(c);
    }

    fn emit_if_due(&mut self) {
        if self.line_numbers[self.index] == 0 {
            return;
        }
        let n = self.counts.entry(self.hash).or_insert(0);
        *n += 1;
        // Lines are emitted in order, one each: the vector's index is the line's (`line - 1`).
        self.out.push(format!("{:x}:{}", self.hash, n));
        self.line_numbers[self.index] = 0;
    }

    fn update(&mut self, c: u16) {
        let begin = self.window[self.index];
        self.window[self.index] = c;
        self.hash = MOD
            .wrapping_mul(self.hash)
            .wrapping_add(u64::from(c))
            .wrapping_sub(self.first_mod.wrapping_mul(u64::from(begin)));
        self.index = (self.index + 1) % BLOCK;
    }
}

/// The file as a UTF-8 decoder gives it to JavaScript: UTF-16 code units, every invalid
/// sequence one U+FFFD (the same "maximal subpart" rule as `String::from_utf8_lossy`).
fn units(bytes: &[u8]) -> Vec<u16> {
    String::from_utf8_lossy(bytes).encode_utf16().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_lines_and_line_endings() {
        // "a\r\nb" and "a\nb" differ only in the line ending, which the algorithm normalises.
        assert_eq!(line_hashes(b"a\r\nb"), line_hashes(b"a\nb"));
        // Spaces and tabs do not count.
        assert_eq!(line_hashes(b"a b\n"), line_hashes(b"ab\n\t"));
        // Control: a different character gives a different hash.
        assert_ne!(line_hashes(b"a\nb"), line_hashes(b"a\nc"));
        // The end of the file opens one more line.
        assert_eq!(line_hashes(b"a\n").len(), 2);
        assert_eq!(line_hashes(b"").len(), 1);
    }

    #[test]
    fn equal_lines_are_numbered() {
        // Windows longer than the file: equal lines near the end have different hashes, but
        // repeated blocks far from the end have equal ones.
        let block = "x".repeat(120);
        let text = format!("{block}\n{block}\n{block}\n");
        let h = line_hashes(text.as_bytes());
        assert_eq!(h[0].split(':').next(), h[1].split(':').next());
        assert!(h[0].ends_with(":1") && h[1].ends_with(":2"), "{h:?}");
    }

    #[test]
    fn partial_reads_agree_with_whole_ones_where_known() {
        let text: String = (0..400).map(|i| format!("line {i} ✓ 😀\n")).collect();
        let whole = line_hashes(text.as_bytes());
        // Cut inside the emoji of some line: the partial read knows fewer lines, all equal.
        let cut = text.len() / 2 + 3;
        let part = hash_units(&units(&text.as_bytes()[..cut]), false);
        assert!(part.len() > 100 && part.len() < whole.len());
        assert_eq!(part[..], whole[..part.len()]);
        assert_eq!(
            line_hash(&text.as_bytes()[..cut], false, 1),
            Some(whole[0].clone())
        );
        assert_eq!(line_hash(&text.as_bytes()[..cut], false, 399), None);
        assert_eq!(line_hash(text.as_bytes(), true, 0), None);
    }

    #[test]
    fn invalid_utf8_is_one_replacement_per_maximal_subpart() {
        // ED A0 80 (an encoded surrogate) is three replacements, F0 9F 98 (a cut emoji) one.
        assert_eq!(units(b"\xED\xA0\x80").len(), 3);
        assert_eq!(units(b"\xF0\x9F\x98").len(), 1);
        assert_eq!(
            line_hashes(b"\xF0\x9F\x98x"),
            line_hashes("\u{FFFD}x".as_bytes())
        );
    }
}
