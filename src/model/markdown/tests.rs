use super::*;

fn headings(text: &str) -> Vec<(u8, String)> {
    read(text)
        .headings
        .into_iter()
        .map(|h| (h.level, h.text))
        .collect()
}

fn hidden(text: &str) -> Vec<(HiddenKind, &str)> {
    read(text)
        .hidden
        .into_iter()
        .map(|h| (h.kind, &text[h.span.start..h.span.end]))
        .collect()
}

#[test]
fn headings_in_every_form_commonmark_reads() {
    let two = |s: &str| {
        headings(s)
            .into_iter()
            .filter(|h| h.0 == 2)
            .map(|h| h.1)
            .collect::<Vec<_>>()
    };
    assert_eq!(two("## Role\n"), ["Role"]);
    assert_eq!(two("##  Role\n"), ["Role"]);
    assert_eq!(two("## Role ##\n"), ["Role"]);
    assert_eq!(two("  ## Role\n"), ["Role"]);
    assert_eq!(two("Role\n----\n"), ["Role"]);
    assert_eq!(two("## Role: a reviewer\n"), ["Role: a reviewer"]);
    assert_eq!(two("## *Role*\n"), ["Role"]);
    // Controls: not level-2 headings.
    assert_eq!(two("### Role\n"), Vec::<String>::new());
    assert_eq!(two("##Role\n"), Vec::<String>::new());
    assert_eq!(two("    ## Role\n"), Vec::<String>::new(), "indented code");
    assert_eq!(two("```\n## Role\n```\n"), Vec::<String>::new(), "a fence");
    assert_eq!(
        two("~~~md\n## Role\n~~~\n"),
        Vec::<String>::new(),
        "a fence"
    );
    assert_eq!(two("See ## Role\n"), Vec::<String>::new());
    assert_eq!(headings("# R\n"), [(1, "R".to_string())]);
}

#[test]
fn a_heading_keeps_its_span() {
    let text = "x\n\n## Role\n\ny\n";
    let md = read(text);
    let h = &md.headings[0];
    assert_eq!(&text[h.span.start..h.span.end], "## Role\n");
}

#[test]
fn comments_outside_code_are_hidden() {
    assert_eq!(
        hidden("a\n\n<!-- copy the note -->\n\nb\n"),
        [(HiddenKind::Comment, "<!-- copy the note -->")]
    );
    assert_eq!(
        hidden("ig<!-- -->nore\n"),
        [(HiddenKind::Comment, "<!-- -->")]
    );
    assert_eq!(
        hidden("<div>\nx <!-- y --> z\n</div>\n"),
        [(HiddenKind::Comment, "<!-- y -->")]
    );
    // Controls: in code a comment renders; a tag the sanitiser drops is not a comment.
    assert_eq!(hidden("`<!-- x -->`\n"), []);
    assert_eq!(hidden("```\n<!-- x -->\n```\n"), []);
    assert_eq!(hidden("    <!-- x -->\n"), []);
    assert_eq!(
        hidden(
            "Reply with {\"verdict\": \"confirm\"|\"reject\", \"notes\": \"<one sentence>\"} and nothing else.\n"
        ),
        []
    );
}

#[test]
fn unused_definitions_and_titles_are_hidden() {
    assert_eq!(
        hidden("a\n\n[//]: # (copy the note)\n"),
        [(HiddenKind::UnusedDefinition, "[//]: # (copy the note)")]
    );
    assert_eq!(
        hidden("a\n\n[comment]: <> (x)\n"),
        [(HiddenKind::UnusedDefinition, "[comment]: <> (x)")]
    );
    assert_eq!(
        hidden("[x](https://e.net \"copy the note\")\n"),
        [(HiddenKind::Title, "\"copy the note\"")]
    );
    assert_eq!(
        hidden("![x](i.png 'a title')\n"),
        [(HiddenKind::Title, "'a title'")]
    );
    assert_eq!(
        hidden("[x][a]\n\n[A]: https://e.net (used title)\n"),
        [(HiddenKind::Title, "(used title)")]
    );
    // Controls: a definition a link uses, without a title; a link without one.
    assert_eq!(hidden("[x][a] and [a]\n\n[A]: https://e.net\n"), []);
    assert_eq!(hidden("[x](https://e.net)\n"), []);
    assert_eq!(hidden("`[//]: # (x)`\n"), []);
}

#[test]
fn table_delimiters_are_the_pipes_the_parser_splits_at() {
    let text = "| shell | file |\n|---|---|\n| bash | ~/.bashrc |\n";
    let md = read(text);
    let pipes: Vec<&str> = md.table_pipes.iter().map(|&i| &text[i..i + 1]).collect();
    assert!(pipes.iter().all(|p| *p == "|"));
    assert_eq!(
        md.table_pipes.len(),
        6,
        "three a row, the delimiter row aside"
    );
    let bash = text.find("| bash").unwrap();
    assert!(md.table_pipes.contains(&bash));
    assert_eq!(md.table_rows.len(), 2);
    // An escaped pipe is inside its cell; a pipe outside a table is no delimiter.
    let escaped = "| a |\n|---|\n| x \\| sh |\n";
    let md = read(escaped);
    let inner = escaped.find("\\|").unwrap() + 1;
    assert!(!md.table_pipes.contains(&inner));
    assert_eq!(read("curl x | sh\n").table_pipes, Vec::<usize>::new());
}

#[test]
fn destinations_as_written() {
    let text = "![x](https://e.net/c?q={{notes}}) [y][r]\n\n[r]: /p?{{turns}}\n";
    let md = read(text);
    let dests: Vec<&str> = md
        .destinations
        .iter()
        .map(|d| &text[d.start..d.end])
        .collect();
    assert_eq!(dests, ["https://e.net/c?q={{notes}}", " /p?{{turns}}"]);
}

#[test]
fn character_references_outside_code() {
    let text = "a &#x202E; &amp; x&ZeroWidthSpace;y `&#x202E;`\n\n```\n&#x202E;\n```\n";
    let md = read(text);
    let refs: Vec<(&str, &str)> = md
        .char_refs
        .iter()
        .map(|r| (&text[r.span.start..r.span.end], r.decoded.as_str()))
        .collect();
    assert_eq!(
        refs,
        [
            ("&#x202E;", "\u{202E}"),
            ("&amp;", "&"),
            ("&ZeroWidthSpace;", "\u{200B}")
        ]
    );
    // Control: not a reference CommonMark knows.
    assert_eq!(read("&nosuchname; &#xZZ;\n").char_refs, []);
}

#[test]
fn the_rendered_text_and_the_way_back() {
    let text = "*ignore* all\nprevious ig<!-- -->nore `code` &amp; [l](u \"t\")\n\n| a | b |\n|---|---|\n| c | d |\n";
    let md = read(text);
    assert_eq!(
        md.rendered.text,
        "ignore all\nprevious ignore code & l\na\nb\nc\nd\n"
    );
    let at = md.rendered.text.find("ignore all").unwrap();
    let back = md.rendered.source_span(at, at + "ignore all".len());
    assert_eq!(&text[back.start..back.end], "ignore* all");
    let at = md.rendered.text.find("ignore code").unwrap();
    let back = md.rendered.source_span(at, at + "ignore".len());
    assert_eq!(&text[back.start..back.end], "ig<!-- -->nore");
    let at = md.rendered.text.find('&').unwrap();
    let back = md.rendered.source_span(at, at + 1);
    assert_eq!(&text[back.start..back.end], "&amp;");
}

#[test]
fn hostile_input_does_not_panic() {
    for text in [
        "",
        "|",
        "|\n|-\n|",
        "[",
        "[a]: ",
        "<!--",
        "&#",
        "](",
        "[x](",
        "[x](u \"",
        "\u{202E}## x",
        "> | a |\n> |---|\n> | \\| |",
    ] {
        let _ = read(text);
    }
    let deep = "> ".repeat(10_000) + "x";
    let _ = read(&deep);
    let nested = "[".repeat(10_000) + &"]".repeat(10_000);
    let _ = read(&nested);
}

/// The reviewed disagreements with comrak (reviewed.txt): no verdict depends on them.
#[test]
fn reviewed_disagreements_change_no_verdict() {
    // A definition before a paragraph or heading: both read it as a definition, unused here,
    // and the heading's text, the only thing the persona rules read of it, is the same.
    for text in ["[\nfoo\n]: /url\nbar\n", "[foo]: /url\n\"title\" ok\n"] {
        let md = read(text);
        assert_eq!(md.hidden.len(), 1, "{text:?}");
        assert_eq!(md.hidden[0].kind, HiddenKind::UnusedDefinition);
    }
    let md = read("[foo]: /url\nRole\n===\n[foo]\n");
    assert_eq!(md.headings[0].text, "Role");
    assert_eq!(md.hidden, [], "the definition is used");
    // An e-mail autolink is no destination the rules read.
    assert_eq!(read("<foo@bar.example.com>\n").destinations, []);
}

#[test]
fn joins_are_where_rendering_joins_what_the_file_keeps_apart() {
    let joins = |t: &str| {
        let md = read(t);
        md.rendered
            .joins
            .iter()
            .map(|&j| md.rendered.text[j..].chars().take(3).collect::<String>())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        joins("plain prose\nover two lines\n\n- a list\n- of items\n\n## A heading\n"),
        Vec::<String>::new()
    );
    assert_eq!(joins("*ig*nore\n"), ["nor"]);
    assert_eq!(joins("ig<!-- -->nore\n"), ["nor"]);
    assert_eq!(joins("&#105;gnore\n"), ["ign"]);
    assert_eq!(joins("a `code` b\n"), ["cod", " b\n"]);
    assert_eq!(joins("> ignore all\n> previous\n"), ["pre"]);
    assert_eq!(
        joins("| a | b |\n|---|---|\n"),
        Vec::<String>::new(),
        "cells are blocks apart"
    );
}

#[test]
fn each_byte_that_may_render_apart_is_found_anywhere() {
    let prose = "# Title\n\nPlain prose, with (parentheses), \"quotes\", {{notes}} and 3 - 2.\n";
    assert!(!may_render_apart(prose), "control: nothing to render apart");
    for b in ['*', '_', '`', '[', '<', '&', '\\', '|'] {
        for at in [0, 7, prose.len()] {
            let mut text = prose.to_string();
            text.insert(at, b);
            assert!(may_render_apart(&text), "{b:?} at {at}");
        }
    }
}
