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

/// A finding of any rule with a related place: the place labelled at its region, in the
/// finding's file, the finding itself one result (its place only explains it).
fn with_place(n: usize) -> Diagnostic {
    let rule = &crate::rules::layout::SYMBOLIC_LINK;
    let d = Diagnostic::at(rule, "a.md", crate::core::Span::new(0, 1), "twice");
    let place = |i: usize| crate::core::Related {
        span: crate::core::Span::new(10 + i, 11 + i),
        region: crate::core::Region {
            line: 3 + i,
            col: 2,
            col16: 2,
            end_line: 3 + i,
            end_col: 3,
            end_col16: 3,
        },
        fingerprint: None,
        kind: "first",
        label: format!("first said here\n{i}"),
        finding: None,
        evidence: None,
        masks: Vec::new(),
        identity: 0,
        baseline: None,
    };
    d.with_related((0..n).map(place).collect())
}

#[test]
fn any_rule_s_related_places_are_related_locations() {
    let r = PackReport {
        uri_base: "packs/p".into(),
        ..PackReport::default()
    };
    let d = with_place(1);
    assert_eq!(super::super::located::placed(&d).len(), 1, "one result");
    let json = serde_json::to_value(result(&r, &d)).unwrap();
    let related = &json["relatedLocations"];
    assert_eq!(related.as_array().map(Vec::len), Some(1), "{json}");
    assert_eq!(related[0]["id"], 1);
    assert_eq!(related[0]["message"]["text"], "first said hereU+000A0");
    let place = &related[0]["physicalLocation"];
    assert_eq!(place["artifactLocation"]["uri"], "packs/p/a.md");
    assert_eq!(place["artifactLocation"]["uriBaseId"], "%SRCROOT%");
    assert_eq!(place["region"]["startLine"], 3);
    assert_eq!(place["region"]["startColumn"], 2);
    assert_eq!(place["region"]["endColumn"], 3);
    // GitHub rejects a result of more than 1,000 locations: the first 999 places are kept.
    let many = serde_json::to_value(result(&r, &with_place(1_200))).unwrap();
    let kept = many["relatedLocations"].as_array().map(Vec::len);
    assert_eq!(kept, Some(MAX_LOCATIONS - 1));
    // Control: the same finding without a place has no related locations.
    let bare = Diagnostic {
        related: Vec::new(),
        ..d
    };
    let json = serde_json::to_value(result(&r, &bare)).unwrap();
    assert!(json.get("relatedLocations").is_none(), "{json}");
}
