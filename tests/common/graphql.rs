//! GitHub's GraphQL API as the stand-in checks it. GraphQL is not in the REST description the
//! validating proxy loads (`@octokit/openapi` describes `api.github.com`'s REST routes only), so
//! every request to `POST /graphql` is checked here, with or without the proxy: the
//! GraphQL-over-HTTP shape (a JSON object holding a `query` string, and at most a `variables`
//! object and an `operationName` string) and the query's fields against facts of GitHub's
//! published schema (octokit/graphql-schema, `schema.graphql` at commit
//! 82ff2d4780080e6929ebb95608cefa22dfa05ac7): `type Query { viewer: User! }` ("The currently
//! authenticated user"), `type User { login: String!, databaseId: Int }`. A query reaching past
//! these facts (arguments, fragments, aliases, variables, another field) is refused: the checker
//! would not know it is right.
#![allow(dead_code)]

use super::standin::Request;

/// (type, field, the field's type) of GitHub's schema, as far as `ci` uses it.
const SCHEMA: &[(&str, &str, &str)] = &[
    ("Query", "viewer", "User"),
    ("User", "login", "String"),
    ("User", "databaseId", "Int"),
];

fn is_scalar(t: &str) -> bool {
    matches!(t, "String" | "Int")
}

/// Everything wrong with a request to GitHub's GraphQL endpoint (empty: none).
pub(crate) fn problems(req: &Request) -> Vec<String> {
    if req.method != "POST" {
        return vec![format!("GraphQL takes POST, not {}", req.method)];
    }
    let Ok(v) = serde_json::from_slice::<serde_json::Value>(&req.body) else {
        return vec!["the body is not JSON".into()];
    };
    let Some(obj) = v.as_object() else {
        return vec!["the body is not a JSON object".into()];
    };
    let mut out: Vec<String> = obj
        .iter()
        .filter_map(|(k, v)| match (k.as_str(), v) {
            ("query", serde_json::Value::String(_)) => None,
            ("variables", serde_json::Value::Object(_) | serde_json::Value::Null) => None,
            ("operationName", serde_json::Value::String(_) | serde_json::Value::Null) => None,
            _ => Some(format!("key {k} ({v}) is not GraphQL's")),
        })
        .collect();
    match obj.get("query").and_then(|q| q.as_str()) {
        Some(q) => out.extend(query_problems(q)),
        None => out.push("no query".into()),
    }
    out
}

/// The query's problems: `query [Name] { … }` or `{ … }`, fields only.
fn query_problems(q: &str) -> Vec<String> {
    let tokens = tokens(q);
    let mut t: &[String] = &tokens;
    if t.first().map(String::as_str) == Some("query") {
        t = &t[1..];
        if t.first().is_some_and(|n| n != "{") {
            t = &t[1..];
        }
    }
    let mut out = Vec::new();
    let rest = selection(t, "Query", &mut out);
    if !rest.is_empty() {
        out.push(format!("unread after the query: {}", rest.join(" ")));
    }
    out
}

/// Reads `{ field [selection] … }` of type `ty`; returns what follows.
fn selection<'a>(t: &'a [String], ty: &str, out: &mut Vec<String>) -> &'a [String] {
    if t.first().map(String::as_str) != Some("{") {
        out.push(format!("{ty} needs a selection set"));
        return t;
    }
    let mut t = &t[1..];
    let mut fields = 0;
    loop {
        match t.first().map(String::as_str) {
            None => {
                out.push("an unclosed selection set".into());
                return t;
            }
            Some("}") => {
                if fields == 0 {
                    out.push(format!("an empty selection of {ty}"));
                }
                return &t[1..];
            }
            Some(name) => {
                fields += 1;
                let Some((_, _, of)) = SCHEMA.iter().find(|(on, f, _)| *on == ty && *f == name)
                else {
                    out.push(format!("{ty} has no field {name} the checker knows"));
                    return &[];
                };
                t = &t[1..];
                if is_scalar(of) {
                    if t.first().map(String::as_str) == Some("{") {
                        out.push(format!("{ty}.{name} is a {of}: no selection"));
                        return &[];
                    }
                } else {
                    t = selection(t, of, out);
                }
            }
        }
    }
}

/// Names and braces; anything else is its own token (and refused as a field name).
fn tokens(q: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for c in q.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            cur.push(c);
            continue;
        }
        if !cur.is_empty() {
            out.push(std::mem::take(&mut cur));
        }
        if !(c.is_whitespace() || c == ',') {
            out.push(c.to_string());
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}
