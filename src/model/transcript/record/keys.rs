//! A key given twice in a transcript line, found while the line is read. Each object the
//! record's reader reads compares its keys as serde_json hands them over: a name the reader
//! knows (`type`, `message` …) by one bit of the object, any other key with the object's other
//! keys (only a key borrowed from the line is compared, so no other key can equal a known
//! name); a value it skips or
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

/// How a field's reader took a key: the bit of a name it knows (0: a key it does not know, or
/// one it skips), and how it read the value.
#[derive(Clone, Copy)]
pub(super) struct Took {
    pub(super) known: u32,
    pub(super) reads: Reads,
}

/// A key's place in the line: its bytes (quotes excluded) and where its value starts.
pub(super) struct Placed {
    start: usize,
    end: usize,
    at: usize,
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

    /// A key as serde_json read it (`None`: a key with an escape, not borrowed from the line),
    /// placed in the line, while the look goes on; [`Keys::field`] compares it once its value
    /// is read.
    pub(super) fn key(&self, key: Option<&'l str>) -> Option<Placed> {
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
        Some(Placed { start, end, at })
    }

    /// The key `placed` of the object whose keys start at `from`, its value read as `took`
    /// says, compared with the object's keys before it: a name the reader knows by its bit in
    /// `seen`, any other key with the other keys of the object. A key given twice comes before
    /// anything its value holds, so it is the answer whatever the value's reading found; a key
    /// given once has its value scanned where the reader compared no keys.
    pub(super) fn field(&self, from: usize, placed: Placed, took: Took, seen: &mut u32) {
        let line = self.line.as_bytes();
        let Placed { start, end, at } = placed;
        let twice = if took.known != 0 {
            let twice = *seen & took.known != 0;
            *seen |= took.known;
            twice
        } else {
            let k = line.get(start..end).unwrap_or_default();
            let mut s = self.state.borrow_mut();
            let given = s.open.get(from..).unwrap_or_default();
            let twice = given
                .iter()
                .any(|&(a, b)| b.wrapping_sub(a) == k.len() && line.get(a..b) == Some(k));
            s.open.push((start, end));
            twice
        };
        if twice {
            let key = self.line.get(start..end).unwrap_or_default();
            self.state.borrow_mut().found = Found::Twice(key.to_string());
            return;
        }
        self.value(at, took.reads);
    }

    /// The value that starts at `at` was read as `reads` says: scanned if it is an object or a
    /// list whose keys the reader did not compare.
    fn value(&self, at: usize, reads: Reads) {
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
    const RECORDS: [&str; 17] = [
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
        r#"{"type": "user", "message": V, "message": {"content": [{"text": V}]}}"#,
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
