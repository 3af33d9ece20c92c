//! The redaction corpus: tests/data/secrets/corpus.toml, a table of cases expanded at run time
//! (`expand.rs`), so the repository holds no secret-shaped string. Per family, positives in the
//! contexts a pack author pastes them into, and near-misses that must not match; one positive
//! per token row of the detector table; the realistic negatives. The unit tests check every
//! case; `export` writes the corpus out for scripts/secrets_diff.py, which runs gitleaks and
//! Kingfisher over the same files.

mod expand;

pub(crate) use expand::{Rng, expand};
#[cfg(test)]
pub(crate) use expand::{crc_body, jwt};

/// The table, read when the crate is built.
const DATA: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/secrets/corpus.toml"
));

/// The seed of the one generator that expands the table, in its order.
const SEED: u64 = 0x5EC2_E70F_F00D;

/// One case: a positive carries the kind and the secret its match must cover; a near-miss
/// carries neither.
#[derive(Debug, Clone)]
pub(crate) struct Case {
    /// The group of the table it is written in (`realistic`, `rows`, ...).
    pub(crate) group: String,
    pub(crate) family: String,
    pub(crate) kind: Option<String>,
    pub(crate) text: String,
    pub(crate) secret: String,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Table {
    group: Vec<Group>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Group {
    name: String,
    case: Vec<Row>,
}

/// A row as written: a near-miss's `text`, or a positive's `kind`, `before`, `secret`, `after`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Row {
    family: String,
    kind: Option<String>,
    text: Option<String>,
    before: Option<String>,
    secret: Option<String>,
    after: Option<String>,
    times: Option<usize>,
}

/// The cases of a table's text, expanded in order, or what is wrong with a row.
pub(crate) fn parse(data: &str) -> Result<Vec<Case>, String> {
    let table: Table = toml::from_str(data).map_err(|e| e.to_string())?;
    let r = &mut Rng(SEED);
    let mut out = Vec::new();
    for g in table.group {
        for row in g.case {
            for _ in 0..row.times.unwrap_or(1) {
                out.push(case(r, &g.name, &row)?);
            }
        }
    }
    Ok(out)
}

fn case(r: &mut Rng, group: &str, row: &Row) -> Result<Case, String> {
    let (text, secret) = match (&row.kind, &row.text, &row.secret) {
        (None, Some(text), None) if row.before.is_none() && row.after.is_none() => {
            (expand(r, text)?, String::new())
        }
        (Some(_), None, Some(secret)) => {
            let before = expand(r, row.before.as_deref().unwrap_or(""))?;
            let secret = expand(r, secret)?;
            let after = expand(r, row.after.as_deref().unwrap_or(""))?;
            (format!("{before}{secret}{after}"), secret)
        }
        _ => {
            return Err(format!(
                "a row of {group} ({}) is neither a near-miss (text) nor a positive (kind, secret)",
                row.family
            ));
        }
    };
    Ok(Case {
        group: group.to_string(),
        family: row.family.clone(),
        kind: row.kind.clone(),
        text,
        secret,
    })
}

/// Every case, in the table's order.
pub(crate) fn all() -> Vec<Case> {
    parse(DATA).unwrap_or_else(|e| panic!("tests/data/secrets/corpus.toml: {e}"))
}

#[cfg(test)]
pub(crate) fn positives() -> Vec<Case> {
    all().into_iter().filter(|c| c.kind.is_some()).collect()
}

/// The texts of one group of the table.
#[cfg(test)]
pub(crate) fn group(name: &str) -> Vec<String> {
    all()
        .into_iter()
        .filter(|c| c.group == name)
        .map(|c| c.text)
        .collect()
}

/// Writes the corpus to `dir`: one file a case (`<family>/<pos|near>-<n>.txt`) and
/// `manifest.json` listing each file's group, family, kind and secret.
pub(crate) fn export(dir: &std::path::Path) -> std::io::Result<usize> {
    let mut manifest = Vec::new();
    for (n, c) in all().iter().enumerate() {
        let slug: String = c
            .family
            .chars()
            .map(|ch| {
                if ch.is_ascii_alphanumeric() {
                    ch.to_ascii_lowercase()
                } else {
                    '-'
                }
            })
            .collect();
        let file = format!(
            "{slug}/{}-{n:03}.txt",
            if c.kind.is_some() { "pos" } else { "near" }
        );
        let path = dir.join(&file);
        std::fs::create_dir_all(path.parent().expect("a file has a folder"))?;
        std::fs::write(&path, format!("{}\n", c.text))?;
        manifest.push(serde_json::json!({
            "file": file, "group": c.group, "family": c.family, "kind": c.kind, "secret": c.secret,
        }));
    }
    let json = serde_json::to_string_pretty(&manifest).expect("the manifest serializes");
    std::fs::write(dir.join("manifest.json"), json)?;
    Ok(manifest.len())
}
