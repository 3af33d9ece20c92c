//! Reading a table against its declaration: every key once, its problems found.

use super::*;

type Check = fn();

fn nothing() {}

static SESSION: Table<Check> = Table {
    name: "session",
    keys: &[
        Key::required("id", Type::String, nothing),
        Key::optional("notes", Type::Strings, nothing),
    ],
};

static TOP: Table<Check> = Table {
    name: "",
    keys: &[
        Key::<Check>::required("protocol", Type::String, nothing).says("must be \"HIPPO_V1\""),
        Key::<Check>::required("per_note", Type::Bool, nothing).expects("true or false"),
        Key::optional("budget", Type::Integer, nothing),
        Key::<Check>::required("session", Type::Tables, nothing).because("one is needed"),
        Key::optional("model", Type::Table, nothing),
    ],
};

const GOOD: &str = "protocol = \"HIPPO_V1\"\nper_note = true\nbudget = 0x10\n\
    [model]\n[[session]]\nid = \"a\"\nnotes = [\"x\", \"y\"]\n";

fn problems(text: &str, decl: &Table<Check>) -> Vec<Problem> {
    let doc = toml_spans::parse(text).ok().unwrap();
    read(doc.get_ref(), None, decl).problems
}

#[test]
fn a_good_table_is_read_whole_in_file_order() {
    let doc = toml_spans::parse(GOOD).ok().unwrap();
    let reading = read(doc.get_ref(), None, &TOP);
    assert_eq!(reading.problems, []);
    let keys: Vec<&str> = reading.entries.iter().map(|(_, e)| e.key).collect();
    assert_eq!(keys, ["protocol", "per_note", "budget", "model", "session"]);
    let (_, budget) = &reading.entries[2];
    assert!(matches!(budget.value, Value::Integer(Some(16))));
    assert_eq!(&GOOD[budget.span.start..budget.span.end], "0x10");
    assert_eq!(&GOOD[budget.key_span.start..budget.key_span.end], "budget");
    let Value::Tables(sessions) = &reading.entries[4].1.value else {
        panic!("{:?}", reading.entries[4].1.value)
    };
    let (span, t) = sessions[0];
    let inner = read(t, Some(span), &SESSION);
    assert_eq!(inner.problems, []);
    assert_eq!(inner.entries[1].1.name(), "session.notes");
    assert!(matches!(&inner.entries[1].1.value, Value::Strings(l) if l.len() == 2));
}

#[test]
fn unknown_keys_are_found_at_their_span() {
    let text = format!("{GOOD}homepage = 1\n");
    let found = problems(&text.replace("[model]\n", "[model]\nx = 1\n"), &TOP);
    // `x` is in [model], which this reading does not enter; `homepage` is in the last table.
    assert_eq!(found, []);
    let text = format!("homepage = 1\n{GOOD}");
    let found = problems(&text, &TOP);
    assert_eq!(
        found,
        [Problem::Unknown {
            key: "homepage".into(),
            span: Span::new(0, 8)
        }]
    );
}

#[test]
fn missing_keys_are_found_with_their_reason_and_table() {
    let found = problems("protocol = \"HIPPO_V1\"\n", &TOP);
    assert_eq!(
        found,
        [
            Problem::Missing {
                key: "per_note",
                why: None,
                at: None
            },
            Problem::Missing {
                key: "session",
                why: Some("one is needed"),
                at: None
            },
        ]
    );
    let doc = toml_spans::parse("notes = []\n").ok().unwrap();
    let at = Some(Span::new(3, 9));
    let found = read(doc.get_ref(), at, &SESSION).problems;
    let want = Problem::Missing {
        key: "id",
        why: None,
        at,
    };
    assert_eq!(found, [want]);
}

#[test]
fn mistyped_values_are_found_in_their_key_words() {
    let text = GOOD
        .replace("\"HIPPO_V1\"", "1")
        .replace("per_note = true", "per_note = \"yes\"")
        .replace("0x10", "\"big\"")
        .replace("[[session]]", "[session]")
        .replace("[model]\n", "model = [1]\n");
    let words: Vec<String> = problems(&text, &TOP)
        .into_iter()
        .map(|p| match p {
            Problem::Mistyped { key, words, .. } => format!("{key}: {words}"),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(
        words,
        [
            "protocol: must be \"HIPPO_V1\"",
            "per_note: expected true or false, found a string",
            "budget: expected an integer, found a string",
            "model: expected a table, found an array",
            "session: expected an array of tables ([[session]]), found a table",
        ]
    );
    let doc = toml_spans::parse("[[x]]\nid = 1\nnotes = [\"a\", 2]\n")
        .ok()
        .unwrap();
    let Some(DeValue::Array(items)) = toml_spans::get(doc.get_ref(), "x").map(|(_, v)| v.get_ref())
    else {
        panic!("[[x]] is an array")
    };
    let t = items[0].get_ref().as_table().unwrap();
    let reading = read(t, None, &SESSION);
    let words: Vec<String> = reading
        .problems
        .iter()
        .map(|p| match p {
            Problem::Mistyped { key, words, .. } => format!("{key}: {words}"),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(
        words,
        [
            "id: expected a string, found an integer",
            "notes: expected a list of strings, found an integer in it",
        ]
    );
    // A mistyped key is still an entry, for the checks that care that it is there.
    assert!(
        reading
            .entries
            .iter()
            .all(|(_, e)| matches!(e.value, Value::Mistyped))
    );
}
