//! `hippo-packs schema <document>`: a JSON Schema (draft 2020-12) of each TOML document a pack
//! or a registry holds, for an editor's TOML support (taplo, Even Better TOML) to complete and
//! check the keys. pack.toml, a pass file and case.toml are made from the key tables the rules
//! read (`model::schema::Table`, via `rules::<family>::key_shapes`), so a schema names exactly
//! the keys `check` knows, with their types and whether each is required; the values' own rules
//! (a name's shape, a path in this pack) stay `check`'s. `.hippo-packs.toml` is its `[[allow]]`
//! entries (docs/configuration.md). Committed copies are docs/schemas/*.schema.json
//! (tests/it/schemas.rs holds them equal and validates every TOML of the repository's packs).

use serde_json::{Map, Value, json};

use crate::model::schema::{KeyShape, Type};

/// The documents a schema describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Document {
    /// `pack.toml`.
    Pack,
    /// `passes/<name>.toml`.
    Pass,
    /// `tests/<case>/case.toml`.
    Case,
    /// `.hippo-packs.toml`, a registry's allowances.
    Config,
}

impl Document {
    /// The name the command takes and the file's stem under docs/schemas/.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Document::Pack => "pack",
            Document::Pass => "pass",
            Document::Case => "case",
            Document::Config => "hippo-packs",
        }
    }
}

/// The schema of `doc`, pretty-printed, ending in a line feed.
pub(crate) fn render(doc: Document) -> String {
    let (title, body) = match doc {
        Document::Pack => ("pack.toml", tables(&crate::rules::manifest::key_shapes())),
        Document::Pass => (
            "passes/<name>.toml",
            tables(&crate::rules::pass::key_shapes()),
        ),
        Document::Case => (
            "tests/<case>/case.toml",
            tables(&crate::rules::case::key_shapes()),
        ),
        Document::Config => (".hippo-packs.toml", config()),
    };
    let mut schema = Map::new();
    schema.insert(
        "$schema".into(),
        json!("https://json-schema.org/draft/2020-12/schema"),
    );
    schema.insert(
        "$id".into(),
        json!(format!(
            "https://github.com/hippo-packs/hippo-packs/blob/main/docs/schemas/{}.schema.json",
            doc.name()
        )),
    );
    schema.insert(
        "title".into(),
        json!(format!("{title} of a hippo pack (hippo-packs)")),
    );
    if let Value::Object(body) = body {
        schema.extend(body);
    }
    let mut out = serde_json::to_string_pretty(&Value::Object(schema)).unwrap_or_default();
    out.push('\n');
    out
}

/// The object schema of the top-level table, each table below it nested at its key.
fn tables(all: &[(&'static str, Vec<KeyShape>)]) -> Value {
    object("", all)
}

/// The object schema of the table named `name` (dotted, empty for the top level).
fn object(name: &str, all: &[(&'static str, Vec<KeyShape>)]) -> Value {
    let keys: &[KeyShape] = all
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(&[], |(_, k)| k.as_slice());
    let mut properties = Map::new();
    for k in keys {
        let dotted = if name.is_empty() {
            k.name.to_string()
        } else {
            format!("{name}.{}", k.name)
        };
        let value = match k.ty {
            Type::String if k.name == "protocol" => json!({"const": "HIPPO_V1"}),
            Type::String => json!({"type": "string"}),
            Type::Strings => json!({"type": "array", "items": {"type": "string"}}),
            Type::Bool => json!({"type": "boolean"}),
            Type::Integer => json!({"type": "integer"}),
            Type::Table => object(&dotted, all),
            Type::Tables => json!({"type": "array", "items": object(&dotted, all)}),
        };
        properties.insert(k.name.to_string(), value);
    }
    let required: Vec<&str> = keys.iter().filter(|k| k.required).map(|k| k.name).collect();
    let mut out = Map::new();
    out.insert("type".into(), json!("object"));
    out.insert("properties".into(), Value::Object(properties));
    if !required.is_empty() {
        out.insert("required".into(), json!(required));
    }
    out.insert("additionalProperties".into(), json!(false));
    Value::Object(out)
}

/// `.hippo-packs.toml`: `[[allow]]` entries of `rule`, `path`, `reason` and an optional `text`
/// (`allow::RawFile`, which refuses any other key).
fn config() -> Value {
    json!({
        "type": "object",
        "properties": {
            "allow": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "rule": {"type": "string"},
                        "path": {"type": "string"},
                        "text": {"type": "string"},
                        "reason": {"type": "string"}
                    },
                    "required": ["rule", "path", "reason"],
                    "additionalProperties": false
                }
            }
        },
        "additionalProperties": false
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_case_schema_nests_its_tables_from_the_key_table() {
        let v: Value = serde_json::from_str(&render(Document::Case)).unwrap();
        let session = &v["properties"]["session"];
        assert_eq!(session["type"], "array");
        assert_eq!(session["items"]["required"], json!(["id"]));
        let note = &v["properties"]["expect"]["properties"]["note"]["items"];
        assert_eq!(note["required"], json!(["path"]));
        assert_eq!(v["properties"]["protocol"], json!({"const": "HIPPO_V1"}));
        assert_eq!(v["additionalProperties"], false);
        // Control: a key no table declares is in no schema.
        assert!(v["properties"].get("temperature").is_none());
        let pass: Value = serde_json::from_str(&render(Document::Pass)).unwrap();
        assert_eq!(pass["properties"]["per_note"]["type"], "boolean");
    }
}
