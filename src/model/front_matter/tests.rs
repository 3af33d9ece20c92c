use super::*;

fn type_of(text: &str) -> Option<String> {
    match read(text) {
        FrontMatter::Read { note_type } => note_type,
        other => panic!("not read: {other:?}"),
    }
}

/// The line (1-based, in the file) and reason of an unreadable block.
fn unreadable(text: &str) -> (usize, String) {
    match read(text) {
        FrontMatter::Unreadable { at, why } => (text[..at.start].matches('\n').count() + 1, why),
        other => panic!("readable: {other:?}"),
    }
}

#[test]
fn the_type_as_yaml_reads_it() {
    assert_eq!(
        type_of("---\ntitle: x\ntype: decision\n---\n# x\n").as_deref(),
        Some("decision")
    );
    assert_eq!(
        type_of("---\ntype: decision  # ADR\n---\n").as_deref(),
        Some("decision")
    );
    assert_eq!(
        type_of("---\ntype: \"decision\" # ADR\n---\n").as_deref(),
        Some("decision")
    );
    assert_eq!(
        type_of("---\r\ntype: 'log'\r\n---\r\n").as_deref(),
        Some("log")
    );
    assert_eq!(
        type_of("---\n{title: x, type: decision}\n---\n").as_deref(),
        Some("decision")
    );
    assert_eq!(
        type_of("---\nbase: &t decision\ntype: *t\n---\n").as_deref(),
        Some("decision")
    );
    assert_eq!(
        type_of("---\ntype: >-\n  decision\n...\n").as_deref(),
        Some("decision")
    );
    // A nested `type` is not the note's; null is no type; a list is no type.
    assert_eq!(type_of("---\nmeta:\n  type: decision\n---\n"), None);
    assert_eq!(
        type_of("---\nmeta: {type: decision}\ntags: [type]\n---\n"),
        None
    );
    assert_eq!(type_of("---\ntype: ~\n---\n"), None);
    assert_eq!(type_of("---\ntype: [a, b]\n---\n"), None);
    assert_eq!(type_of("---\n- type\n- decision\n---\n"), None);
    assert_eq!(type_of("---\n---\n"), None);
    assert_eq!(
        type_of("---\nmeta:\n  a: 1\ntype: log\n---\n").as_deref(),
        Some("log")
    );
}

#[test]
fn no_block_is_absent() {
    assert_eq!(
        read("# x\ntype: decision\n"),
        FrontMatter::Absent,
        "not at the top"
    );
    assert_eq!(
        read("---\ntype: decision\n"),
        FrontMatter::Absent,
        "unclosed"
    );
    assert_eq!(read(""), FrontMatter::Absent);
    assert_eq!(
        read("---\ntitle: x\n---\ntype: log\n"),
        FrontMatter::Read { note_type: None },
        "after the block"
    );
}

#[test]
fn unreadable_blocks_name_their_line() {
    assert_eq!(unreadable("---\ntitle: x\ntype: [decision\n---\n").0, 4);
    assert_eq!(unreadable("---\na: b: c\n---\n").0, 2);
    assert_eq!(
        unreadable("---\ntype: a\ntype: b\n---\n"),
        (3, "key type twice".to_string())
    );
    assert_eq!(unreadable("---\nx: *nowhere\n---\n").0, 2);
    // Control: the same keys once each read.
    assert_eq!(
        type_of("---\ntype: a\nother: b\n---\n").as_deref(),
        Some("a")
    );
}

#[test]
fn depth_and_aliases_are_capped() {
    let deep = format!(
        "---\nx: {}{}\n---\n",
        "[".repeat(MAX_DEPTH + 1),
        "]".repeat(MAX_DEPTH + 1)
    );
    assert!(unreadable(&deep).1.contains("deeper"));
    let ok = format!(
        "---\nx: {}{}\n---\n",
        "[".repeat(MAX_DEPTH - 2),
        "]".repeat(MAX_DEPTH - 2)
    );
    assert_eq!(type_of(&ok), None, "control: within the cap");
    let mut laughs = String::from("---\na: &a [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 0..MAX_ALIASES {
        laughs.push_str(&format!("b{i}: [*a, *a]\n"));
    }
    laughs.push_str("---\n");
    assert!(unreadable(&laughs).1.contains("aliases"));
    let many = format!("---\nx: [{}]\n---\n", vec!["1"; MAX_EVENTS].join(","));
    assert!(unreadable(&many).1.contains("values"));
}
