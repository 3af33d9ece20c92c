//! A key given twice in a transcript line, found while the line is read. Each object the
//! record's reader reads compares its keys as serde_json hands them over; a value it skips or
//! reads as a [`serde_json::Value`] (which keeps a key's last value without a word) is scanned
//! from where it starts if it is an object or a list (`model::json::duplicate_key_in_value`).
//! The answer is [`json::duplicate_key`]'s of the whole line, found in the same order (the
//! first second occurrence in the line) without a second look at the bytes the reader read;
//! where a key's place in the line is not known (a key with an escape, a list given as a
//! content block) the line is scanned whole by it.

use crate::model::json;
use std::cell::RefCell;

/// How a field's reader read its value, so the value is scanned where the reader compared no
/// keys.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Reads {
    /// Skipped, or read as a `Value`: an object or a list is scanned.
    Nothing,
    /// An object key by key; a list skipped (scanned).
    Objects,
    /// An object key by key, and a list element by element (content blocks).
    ObjectsAndLists,
}

/// What the look has found so far.
enum Found {
    Looking,
    Twice(String),
    /// A key whose place is not known: the line is scanned whole at the end.
    Whole,
}

/// The keys of one line as its reader meets them.
pub(super) struct Keys<'l> {
    line: &'l str,
    state: RefCell<State>,
}

struct State {
    /// The keys of the open objects, as spans of the line, the innermost's last.
    open: Vec<(usize, usize)>,
    found: Found,
}

impl<'l> Keys<'l> {
    /// The look at `line`, with `open` (emptied) as room for the keys: one list for every line
    /// of a file.
    pub(super) fn new(line: &'l str, mut open: Vec<(usize, usize)>) -> Keys<'l> {
        open.clear();
        let found = Found::Looking;
        let state = RefCell::new(State { open, found });
        Keys { line, state }
    }

    /// An object opens: where its keys start.
    pub(super) fn object(&self) -> usize {
        self.state.borrow().open.len()
    }

    /// The object whose keys start at `from` is read.
    pub(super) fn close(&self, from: usize) {
        self.state.borrow_mut().open.truncate(from);
    }

    /// A key of the object whose keys start at `from`, as serde_json read it (`None`: a key
    /// with an escape, not borrowed from the line): compared with the object's keys before it.
    /// Where its value starts, while the look goes on.
    pub(super) fn key(&self, from: usize, key: Option<&'l str>) -> Option<usize> {
        let mut s = self.state.borrow_mut();
        if !matches!(s.found, Found::Looking) {
            return None;
        }
        let line = self.line.as_bytes();
        // A key without an escape is borrowed from the line: its place is its address.
        let Some(key) = key else {
            s.found = Found::Whole;
            return None;
        };
        let k = key.as_bytes();
        let start = (k.as_ptr() as usize).wrapping_sub(line.as_ptr() as usize);
        let end = start.wrapping_add(k.len());
        if end < start || end > line.len() {
            s.found = Found::Whole;
            return None;
        }
        let given = s.open.get(from..).unwrap_or_default();
        if given
            .iter()
            .any(|&(a, b)| b.wrapping_sub(a) == k.len() && line.get(a..b) == Some(k))
        {
            s.found = Found::Twice(key.to_string());
            return None;
        }
        s.open.push((start, end));
        // After the closing quote, white space and the colon (in a line serde_json reads, a
        // value always follows).
        let mut at = end + 1;
        while line
            .get(at)
            .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b':'))
        {
            at += 1;
        }
        if at >= line.len() {
            s.found = Found::Whole;
            return None;
        }
        Some(at)
    }

    /// The value that starts at `at` was read as `reads` says: scanned if it is an object or a
    /// list whose keys the reader did not compare.
    pub(super) fn value(&self, at: usize, reads: Reads) {
        let scan = match self.line.as_bytes().get(at) {
            Some(b'{') => reads == Reads::Nothing,
            Some(b'[') => reads != Reads::ObjectsAndLists,
            _ => false,
        };
        let mut s = self.state.borrow_mut();
        if scan && matches!(s.found, Found::Looking) {
            match json::duplicate_key_in_value(self.line, at) {
                Ok(None) => {}
                Ok(Some((key, _))) => s.found = Found::Twice(key),
                Err(json::Stopped) => s.found = Found::Whole,
            }
        }
    }

    /// A value whose place is not known was skipped: the line is scanned whole at the end.
    pub(super) fn unplaced(&self) {
        let mut s = self.state.borrow_mut();
        if matches!(s.found, Found::Looking) {
            s.found = Found::Whole;
        }
    }

    /// The first key an object of the line gives twice, and the room for the next line's keys.
    pub(super) fn finish(self) -> (Option<String>, Vec<(usize, usize)>) {
        let s = self.state.into_inner();
        let twice = match s.found {
            Found::Looking => None,
            Found::Twice(key) => Some(key),
            Found::Whole => json::duplicate_key(self.line).map(|(key, _)| key),
        };
        (twice, s.open)
    }
}

#[cfg(test)]
mod tests {
    use super::super::read;
    use crate::model::json;

    /// Objects and lists, each holding a key twice or not, put in every place of a record.
    const VALUES: [&str; 12] = [
        r#"{"k": 1, "k": 2}"#,
        r#"{"k": 1, "j": 2}"#,
        r#"[{"k": 1}, {"k": 1, "k": 2}]"#,
        r#"[{"k": 1}, {"k": 1}]"#,
        r#"{"a": {"k": [1], "k": 2}}"#,
        r#"{"k": "\"k\": 1, \"k\""}"#,
        r#"{"k": 1, "\u006b": 2}"#,
        r#"{"\ud800": 1, "k": 2, "k": 3}"#,
        r#"{"k": "\ud800", "k": 2}"#,
        r#"[[{"k": 1, "k": 2}]]"#,
        r#""k""#,
        "{ \"k\" :\t1 ,\n\"k\" : 2 }",
    ];

    /// Records with `V` where a value can be: every field each reader reads, skips or reads
    /// as JSON, and keys given twice around it.
    const RECORDS: [&str; 16] = [
        r#"{"type": "user", "x": V, "sessionId": "s"}"#,
        r#"{"type": V, "sessionId": "s"}"#,
        r#"{"type": "user", "message": V}"#,
        r#"{"type": "user", "message": {"role": V, "content": "c"}}"#,
        r#"{"type": "user", "message": {"content": V}}"#,
        r#"{"type": "user", "message": {"content": [V, {"type": "text", "text": V}]}}"#,
        r#"{"type": "user", "message": {"content": [{"type": "tool_use", "input": V}]}}"#,
        r#"{"type": "user", "message": {"content": [{"content": V, "name": V}]}}"#,
        r#"{"type": "response_item", "payload": V}"#,
        r#"{"type": "response_item", "payload": {"arguments": V, "output": V, "id": V}}"#,
        r#"{"type": "response_item", "payload": {"content": [V], "role": "user"}}"#,
        r#"{"type": "user", "x": V, "type": "assistant"}"#,
        r#"{"type": "user", "m\u0065ssage": V, "x": V}"#,
        r#"{"type": "user", "message": {"content": [[V], {"text": V}]}, "type": 1}"#,
        r#"{"timestamp": V, "sessionId": V, "timestamp": V}"#,
        r#"{"type" : "user" ,"x":V,"y" :V}"#,
    ];

    #[test]
    fn the_key_given_twice_is_the_line_scans() {
        let mut room = Vec::new();
        let mut twice = 0;
        for record in RECORDS {
            for v in VALUES {
                for w in VALUES {
                    let line = record.replacen('V', v, 1).replace('V', w);
                    let Ok((_, found)) = read(&line, &mut room) else {
                        continue;
                    };
                    let scanned = json::duplicate_key(&line).map(|(key, _)| key);
                    assert_eq!(found, scanned, "{line}");
                    twice += usize::from(found.is_some());
                }
            }
        }
        // Controls: most lines give a key twice; one inside a skipped value is found, and a line
        // without one gives none.
        assert!(twice > 1500, "{twice}");
        let skipped = r#"{"type": "user", "x": [1, {"k": 1, "k": 2}], "sessionId": "s"}"#;
        let found = read(skipped, &mut room).map(|r| r.1).ok();
        assert_eq!(found, Some(Some("k".to_string())));
        let fine = r#"{"type": "user", "x": {"k": 1}, "message": {"content": [{"k": 1}]}}"#;
        assert_eq!(read(fine, &mut room).map(|r| r.1).ok(), Some(None));
    }
}
