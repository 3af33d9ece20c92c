//! Every way a file format lets a pack spell one payload: TOML's four string syntaxes, a
//! line-ending backslash, a quoted key and its escapes; JSON's escapes and surrogate pairs; CSS's
//! escapes and URL forms; Markdown's character references, emphasis and inline comments; and the
//! text's own variants (NFKC, confusables, unusual spaces, combining marks).

/// The ways a text can be varied before it is written, each still read the same by a model.
pub(crate) fn text_variants(payload: &str, folds: bool) -> Vec<(&'static str, String)> {
    let mut out = vec![("as written", payload.to_string())];
    if !folds {
        return out;
    }
    out.push(("fullwidth", map_ascii(payload, fullwidth)));
    out.push(("mathematical bold", map_ascii(payload, math_bold)));
    out.push(("Cyrillic look-alikes", map_ascii(payload, cyrillic)));
    out.push(("U+2800 for spaces", payload.replace(' ', "\u{2800}")));
    out.push(("U+2002 for spaces", payload.replace(' ', "\u{2002}")));
    out.push(("a soft hyphen inside", insert_middle(payload, '\u{00AD}')));
    out
}

/// The ways an injection phrase can carry combining marks, which the phrase search folds away
/// (and the shell search does not).
pub(crate) fn mark_variants(payload: &str) -> Vec<(&'static str, String)> {
    vec![
        (
            "precomposed accents",
            payload
                .replacen('e', "\u{E9}", 1)
                .replacen('o', "\u{F3}", 1),
        ),
        ("a combining dot above", insert_middle(payload, '\u{307}')),
        ("small capitals", map_ascii(payload, small_capital)),
    ]
}

/// Latin letters whose LATIN LETTER SMALL CAPITAL form exists.
fn small_capital(c: char) -> Option<char> {
    Some(match c {
        'i' => '\u{26A}',
        'g' => '\u{262}',
        'n' => '\u{274}',
        'o' => '\u{1D0F}',
        'r' => '\u{280}',
        'e' => '\u{1D07}',
        _ => return None,
    })
}

/// The spellings Markdown reads as the same rendered text: a character reference for the middle
/// character or for every one, emphasis around the first two characters, an inline comment in
/// the middle.
pub(crate) fn markdown_strings(s: &str) -> Vec<(&'static str, String)> {
    let reference = |c: char| Some(format!("&#x{:X};", c as u32));
    let first_two = s.char_indices().nth(2).map_or(s.len(), |p| p.0);
    vec![
        ("as written", s.to_string()),
        (
            "a character reference, middle",
            escape_with(s, false, reference, String::from),
        ),
        (
            "character references throughout",
            escape_with(s, true, reference, String::from),
        ),
        (
            "emphasis inside a word",
            format!("*{}*{}", &s[..first_two], &s[first_two..]),
        ),
        (
            "an inline comment inside a word",
            insert_str_middle(s, "<!-- -->"),
        ),
    ]
}

fn insert_str_middle(s: &str, insert: &str) -> String {
    let mid = s
        .char_indices()
        .nth(middle(s).max(1))
        .map_or(s.len(), |p| p.0);
    format!("{}{insert}{}", &s[..mid], &s[mid..])
}

fn map_ascii(s: &str, f: fn(char) -> Option<char>) -> String {
    s.chars().map(|c| f(c).unwrap_or(c)).collect()
}

fn fullwidth(c: char) -> Option<char> {
    ('!'..='~')
        .contains(&c)
        .then(|| char::from_u32(c as u32 - 0x21 + 0xFF01))
        .flatten()
}

fn math_bold(c: char) -> Option<char> {
    match c {
        'a'..='z' => char::from_u32(0x1D41A + (c as u32 - 'a' as u32)),
        'A'..='Z' => char::from_u32(0x1D400 + (c as u32 - 'A' as u32)),
        _ => None,
    }
}

/// Cyrillic letters whose Unicode confusables prototype is the ASCII letter.
fn cyrillic(c: char) -> Option<char> {
    Some(match c {
        'a' => '\u{0430}',
        'c' => '\u{0441}',
        'e' => '\u{0435}',
        'i' => '\u{0456}',
        'o' => '\u{043E}',
        'p' => '\u{0440}',
        's' => '\u{0455}',
        'x' => '\u{0445}',
        'y' => '\u{0443}',
        _ => return None,
    })
}

fn insert_middle(s: &str, c: char) -> String {
    let mid = s
        .char_indices()
        .nth(s.chars().count() / 2)
        .map_or(0, |p| p.0);
    format!("{}{c}{}", &s[..mid], &s[mid..])
}

/// The index of the character a one-character escape replaces: the middle one that is not a
/// space (a line-ending backslash would eat a space after it).
fn middle(s: &str) -> usize {
    let n = s.chars().count();
    (n / 2..n)
        .chain(0..n / 2)
        .find(|&i| s.chars().nth(i).is_some_and(|c| c != ' '))
        .unwrap_or(0)
}

/// Escapes every character for which `esc` has a spelling (`all`), or only the middle one.
fn escape_with(
    s: &str,
    all: bool,
    esc: fn(char) -> Option<String>,
    raw: fn(char) -> String,
) -> String {
    let m = middle(s);
    s.chars()
        .enumerate()
        .map(|(i, c)| match (all || i == m).then(|| esc(c)).flatten() {
            Some(e) => e,
            None => raw(c),
        })
        .collect()
}

fn toml_raw(c: char) -> String {
    match c {
        '"' => "\\\"".into(),
        '\\' => "\\\\".into(),
        c => c.to_string(),
    }
}

fn toml_u(c: char) -> Option<String> {
    Some(if (c as u32) < 0x10000 {
        format!("\\u{:04X}", c as u32)
    } else {
        format!("\\U{:08X}", c as u32)
    })
}

fn toml_big_u(c: char) -> Option<String> {
    Some(format!("\\U{:08X}", c as u32))
}

fn toml_e(c: char) -> Option<String> {
    (c == '\u{1B}').then(|| "\\e".to_string())
}

fn toml_x(c: char) -> Option<String> {
    ((c as u32) < 0x100).then(|| format!("\\x{:02X}", c as u32))
}

/// A TOML string in every syntax the format has, each a complete value (`"..."`, `'...'`, ...).
pub(crate) fn toml_strings(s: &str) -> Vec<(&'static str, String)> {
    let basic: String = s.chars().map(toml_raw).collect();
    let mut out = vec![
        ("TOML basic string", format!("\"{basic}\"")),
        (
            "TOML multi-line basic string",
            format!("\"\"\"{basic}\"\"\""),
        ),
        ("TOML literal string", format!("'{s}'")),
        ("TOML multi-line literal string", format!("'''{s}'''")),
        (
            "TOML literal string closed by four quotes",
            format!("'''{s}''''"),
        ),
    ];
    let (a, b) = split_at_char(&basic, middle(s));
    out.push((
        "TOML line-ending backslash",
        format!("\"\"\"{a}\\\n      {b}\"\"\""),
    ));
    let escapes = [
        ("TOML \\u", toml_u as Esc),
        ("TOML \\U", toml_big_u),
        ("TOML \\x", toml_x),
        ("TOML \\e", toml_e),
    ];
    out.extend(escaped_strings(s, &escapes, toml_raw));
    out
}

type Esc = fn(char) -> Option<String>;

/// A quoted string with each escape of one character and of every character.
fn escaped_strings(
    s: &str,
    escapes: &[(&str, Esc)],
    raw: fn(char) -> String,
) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    for (name, esc) in escapes {
        for (all, which) in [(false, "one character"), (true, "every character")] {
            let label = leak(format!("{name} escape of {which}"));
            out.push((label, format!("\"{}\"", escape_with(s, all, *esc, raw))));
        }
    }
    out
}

fn split_at_char(s: &str, i: usize) -> (&str, &str) {
    let at = s.char_indices().nth(i).map_or(s.len(), |p| p.0);
    s.split_at(at)
}

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

fn json_raw(c: char) -> String {
    match c {
        '"' => "\\\"".into(),
        '\\' => "\\\\".into(),
        c if (c as u32) < 0x20 => format!("\\u{:04x}", c as u32),
        c => c.to_string(),
    }
}

fn json_u(c: char) -> Option<String> {
    let mut units = [0u16; 2];
    Some(
        c.encode_utf16(&mut units)
            .iter()
            .map(|u| format!("\\u{u:04x}"))
            .collect(),
    )
}

fn json_solidus(c: char) -> Option<String> {
    (c == '/').then(|| "\\/".to_string())
}

/// A JSON string in every spelling: raw, `\u` escapes of one or every character (surrogate pairs
/// beyond the BMP), `\/`.
pub(crate) fn json_strings(s: &str) -> Vec<(&'static str, String)> {
    let raw: String = s.chars().map(json_raw).collect();
    let mut out = vec![("JSON string", format!("\"{raw}\""))];
    out.push((
        "JSON \\u escape of one character",
        format!("\"{}\"", escape_with(s, false, json_u, json_raw)),
    ));
    out.push((
        "JSON \\u escape of every character",
        format!("\"{}\"", escape_with(s, true, json_u, json_raw)),
    ));
    if s.contains('/') {
        out.push((
            "JSON \\/",
            format!("\"{}\"", escape_with(s, true, json_solidus, json_raw)),
        ));
    }
    out
}

fn css_hex(c: char) -> Option<String> {
    Some(format!("\\{:x} ", c as u32))
}

fn css_char(c: char) -> Option<String> {
    (!c.is_ascii_hexdigit() && c != '\n' && c != ' ').then(|| format!("\\{c}"))
}

fn css_raw(c: char) -> String {
    match c {
        '"' => "\\\"".into(),
        '\\' => "\\\\".into(),
        c => c.to_string(),
    }
}

/// CSS declarations holding the text as a string: raw, hex escapes, character escapes.
pub(crate) fn css_strings(s: &str) -> Vec<(&'static str, String)> {
    let mut out = vec![(
        "CSS string",
        format!("\"{}\"", s.chars().map(css_raw).collect::<String>()),
    )];
    let escapes = [("CSS hex", css_hex as Esc), ("CSS character", css_char)];
    out.extend(escaped_strings(s, &escapes, css_raw));
    out
}

/// A protocol-relative URL with its second slash written as `backslash` (a near miss, which has
/// no leading `//`, as it is).
fn backslashed(rel: &str, backslash: &str) -> String {
    match rel.strip_prefix("//") {
        Some(rest) => format!("/{backslash}{rest}"),
        None => rel.to_string(),
    }
}

/// The CSS forms that hold a URL: `url()` bare and quoted, `@import`, protocol-relative, a
/// backslash for a slash, an `image-set()` string.
pub(crate) fn css_urls(url: &str) -> Vec<(&'static str, String)> {
    let rel = url.split_once(':').map_or(url, |p| p.1);
    let hex: String = url
        .chars()
        .map(|c| {
            if c == 't' {
                "\\74 ".to_string()
            } else {
                c.to_string()
            }
        })
        .collect();
    vec![
        (
            "CSS url() bare",
            format!("a {{ background: url({url}); }}\n"),
        ),
        (
            "CSS url() quoted",
            format!("a {{ background: url(\"{url}\"); }}\n"),
        ),
        (
            "CSS url() protocol-relative",
            format!("a {{ background: url({rel}); }}\n"),
        ),
        ("CSS @import url()", format!("@import url(\"{url}\");\n")),
        ("CSS @import string", format!("@import \"{url}\";\n")),
        (
            "CSS @import with an escape",
            format!("@import url(\"{hex}\");\n"),
        ),
        // A URL parser reads a backslash as a slash: `/\host` is `//host`, written as a CSS
        // string's escaped backslash and as a hex escape of one.
        (
            "CSS url() with a backslash for a slash",
            format!(
                "a {{ background: url(\"{}\"); }}\n",
                backslashed(rel, "\\\\")
            ),
        ),
        (
            "CSS url() with a hex escape of a backslash",
            format!("a {{ background: url({}); }}\n", backslashed(rel, "\\5c ")),
        ),
        (
            "CSS image-set() string",
            format!("a {{ background: image-set(\"{rel}\" 1x); }}\n"),
        ),
    ]
}

#[cfg(test)]
mod tests {
    #[test]
    fn spellings_decode_to_the_payload() {
        let s = "https://evil.example/x";
        for (name, v) in super::json_strings(s) {
            let back: String = serde_json::from_str(&v).unwrap();
            assert_eq!(back, s, "{name}");
        }
        for (name, v) in super::toml_strings(s) {
            let doc: toml::Table =
                toml::from_str(&format!("k = {v}")).unwrap_or_else(|e| panic!("{name}: {e}"));
            let want = if name.contains("four quotes") {
                format!("{s}'")
            } else {
                s.to_string()
            };
            assert_eq!(doc["k"].as_str(), Some(want.as_str()), "{name}");
        }
    }
}
