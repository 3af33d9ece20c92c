use super::*;

#[test]
fn absolute_paths_are_file_uris_without_a_base() {
    let a = artifact("/srv/my packs/a/pack.toml");
    assert_eq!(a.uri, "file:///srv/my%20packs/a/pack.toml");
    assert_eq!(a.uri_base_id, None);
    let r = artifact("packs/a/pack.toml");
    assert_eq!(
        (r.uri.as_str(), r.uri_base_id),
        ("packs/a/pack.toml", Some("%SRCROOT%"))
    );
}

#[test]
fn names_and_uris() {
    assert_eq!(pascal_case("invisible-character"), "InvisibleCharacter");
    assert_eq!(display_name("redaction"), None);
    assert_eq!(display_name("a-b").as_deref(), Some("AB"));
    assert_eq!(
        encode_uri("packs/a/tests/c/notes/Decision log.md"),
        "packs/a/tests/c/notes/Decision%20log.md"
    );
    assert_eq!(encode_uri("a/é#?%"), "a/%C3%A9%23%3F%25");
    assert_ne!(
        encode_uri("a b"),
        "a b",
        "control: a space is not a URI character"
    );
    assert_eq!(markdown_text("tests/<case>/**"), "tests/\\<case\\>/\\*\\*");
}

#[test]
fn long_texts_are_cut_to_the_limit() {
    let s = "é".repeat(2000);
    let cut = limit(&s, MAX_DESCRIPTION);
    assert_eq!(cut.chars().count(), MAX_DESCRIPTION);
    assert!(cut.ends_with('…'));
    assert_eq!(limit("short", MAX_DESCRIPTION), "short");
}
