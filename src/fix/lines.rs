//! CRLF line ends made LF, outside `tests/` (the caller's check): hippo reads either, and a
//! line's text does not change.

use super::edit::{Edit, Fix, What};

/// One fix for the file: every carriage return that comes right before a line feed removed. A
/// lone carriage return is left as it is.
pub(crate) fn crlf(text: &str) -> Option<Fix> {
    let edits: Vec<Edit> = memchr::memmem::find_iter(text.as_bytes(), b"\r\n")
        .map(|i| Edit::remove(i, i + 1))
        .collect();
    (!edits.is_empty()).then_some(Fix {
        edits,
        what: What::LineEnds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_crlf_pairs_change() {
        let fix = crlf("a\r\nb\rc\r\n").unwrap();
        let starts: Vec<usize> = fix.edits.iter().map(|e| e.span.start).collect();
        assert_eq!(starts, vec![1, 6]);
        assert_eq!(fix.message(), "changed 2 CRLF line ends to LF");
        // Control: LF alone, and a lone CR, are not fixes.
        assert_eq!(crlf("a\nb\rc\n"), None);
    }
}
