//! The strings SARIF holds, made safe for their readers: a rule's PascalCase name, Markdown that
//! shows plain text as it is, a length limit, a percent-encoded URI.

/// A SARIF message (`{"text": ...}`).
#[derive(serde::Serialize)]
pub(super) struct Text {
    pub(super) text: String,
}

/// `invisible-character` → `InvisibleCharacter`.
pub(crate) fn pascal_case(id: &str) -> String {
    id.split('-')
        .map(|part| {
            let mut cs = part.chars();
            match cs.next() {
                Some(first) => first.to_ascii_uppercase().to_string() + cs.as_str(),
                None => String::new(),
            }
        })
        .collect()
}

/// Plain text as Markdown that shows it as it is (`<name>` is not a tag, `**` not emphasis).
pub(crate) fn markdown_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(
            c,
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '#' | '|' | '~'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// At most `max` characters, the cut marked with `…`.
pub(crate) fn limit(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max - 1).collect();
    out.push('…');
    out
}

/// A relative URI reference: every byte but the unreserved characters and `/` percent-encoded
/// (a space, `%`, `#`, `?`, non-ASCII), as GitHub decodes it with `decodeURIComponent`.
pub(crate) fn encode_uri(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'/') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
