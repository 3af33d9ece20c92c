//! Allowances (docs/configuration.md): `[[allow]]` entries of a configuration file that take a
//! warning a maintainer has judged out of the verdict. `check` and `test` read one only when
//! `--config FILE` names it; `ci` reads `.hippo-packs.toml` at the repository root only. Errors
//! cannot be allowed (hippo would refuse the pack). An allowed warning leaves the report's
//! diagnostics for [`PackReport::allowed`]: the text does not print it, the verdict does not
//! count it, SARIF shows it as a suppressed result. An allowance that matches nothing is itself
//! a warning, `unused-allowance`.

use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};

use crate::core::{Diagnostic, LineIndex, Severity, Span, suggest};
use crate::outcome::{Allowed, PackReport};
use crate::rules::{self, configuration::UNUSED_ALLOWANCE};

/// The file `ci` reads at the repository root.
pub(crate) const CI_FILE: &str = ".hippo-packs.toml";

/// The largest configuration file read (bytes): the file is the workspace's, so a pull request
/// controls it in `ci`.
pub(crate) const MAX_FILE_BYTES: u64 = 1 << 20;
/// The most `[[allow]]` entries a file may hold.
pub(crate) const MAX_ENTRIES: usize = 1_000;
/// The longest `path` glob (bytes): globs compile to automata, which grow with the pattern.
pub(crate) const MAX_GLOB_BYTES: usize = 1_024;
/// The longest `rule`, `text` or `reason` (bytes).
pub(crate) const MAX_TEXT_BYTES: usize = 4_096;

/// One `[[allow]]` entry.
#[derive(Debug, Clone)]
pub(crate) struct Allowance {
    pub(crate) rule: String,
    /// The glob as written, relative to the folder that holds the file.
    pub(crate) path: String,
    pub(crate) text: Option<String>,
    pub(crate) reason: String,
    /// Its byte span in the file, for the unused warning.
    span: Span,
    glob: GlobSet,
}

/// A configuration file, read and checked.
#[derive(Debug, Clone)]
pub(crate) struct Config {
    /// The file as named (`--config FILE`, or `.hippo-packs.toml`).
    pub(crate) shown: String,
    /// The folder the `path` globs are relative to (absolute).
    pub(crate) base: PathBuf,
    pub(crate) allow: Vec<Allowance>,
    /// How many findings each allowance took.
    pub(crate) used: Vec<usize>,
    /// For each allowance, the first finding it nearly matched (near::nearly), as
    /// `<path>:<line>:<col>: <message>` from the configuration's folder.
    near: Vec<Option<String>>,
    /// The file's text, to locate the entries.
    text: String,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    #[serde(default)]
    allow: Vec<toml::Spanned<RawAllow>>,
}

#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAllow {
    rule: String,
    path: String,
    text: Option<String>,
    reason: String,
}

impl Config {
    /// Reads `path`; `Err` is a one-line reason (a usage error: the file is the caller's).
    pub(crate) fn load(path: &Path, shown: &str) -> Result<Config, String> {
        let text = read_capped(path).map_err(|e| format!("{shown}: {e}"))?;
        let base = std::path::absolute(path)
            .ok()
            .and_then(|p| p.parent().map(Path::to_path_buf))
            .unwrap_or_default();
        let base = std::fs::canonicalize(&base).unwrap_or(base);
        Config::parse(&text, shown, base)
    }

    /// Parses the file's text; `base` is the folder globs are relative to.
    pub(crate) fn parse(text: &str, shown: &str, base: PathBuf) -> Result<Config, String> {
        let raw: RawFile = toml::from_str(text).map_err(|e| {
            // A key or value quoted in the message may hold a line break: one line, always.
            let msg = crate::core::escape::line(e.message().trim()).into_owned();
            match e.span() {
                Some(s) => {
                    let r = LineIndex::new(text.as_bytes()).region(Span::from_range(s));
                    format!("{shown}:{}:{}: {msg}", r.line, r.col)
                }
                None => format!("{shown}: {msg}"),
            }
        })?;
        if raw.allow.len() > MAX_ENTRIES {
            return Err(format!(
                "{shown}: {} [[allow]] entries; at most {MAX_ENTRIES}",
                raw.allow.len()
            ));
        }
        let idx = LineIndex::new(text.as_bytes());
        let mut allow = Vec::new();
        for entry in raw.allow {
            let span = Span::from_range(entry.span());
            let line = idx.region(span).line;
            let a = entry.into_inner();
            let at = format!("{shown}:{line}");
            check_lengths(&a).map_err(|why| format!("{at}: {why}"))?;
            check_rule(&a.rule).map_err(|why| format!("{at}: {why}"))?;
            if a.reason.trim().is_empty() {
                return Err(format!(
                    "{at}: reason is empty: say why the warning is allowed"
                ));
            }
            let glob = compile(&a.path).map_err(|why| format!("{at}: path: {why}"))?;
            allow.push(Allowance {
                rule: a.rule,
                path: a.path,
                text: a.text,
                reason: a.reason,
                span,
                glob,
            });
        }
        let used = vec![0; allow.len()];
        Ok(Config {
            shown: shown.to_string(),
            base,
            near: vec![None; allow.len()],
            allow,
            used,
            text: text.to_string(),
        })
    }

    /// Moves every warning of `r` that an allowance matches to `r.allowed`.
    pub(crate) fn apply(&mut self, r: &mut PackReport) {
        let pack = std::fs::canonicalize(&r.dir).ok();
        let mut kept = Vec::with_capacity(r.diagnostics.len());
        for d in std::mem::take(&mut r.diagnostics) {
            let rel = pack
                .as_deref()
                .zip(d.file.as_deref())
                .and_then(|(p, f)| relative(&self.base, &p.join(f)));
            let hit = (d.severity == Severity::Warning)
                .then_some(rel.as_deref())
                .flatten()
                .and_then(|rel| self.allow.iter().position(|a| a.matches(&d, rel)));
            match hit {
                Some(i) => {
                    self.used[i] += 1;
                    r.allowed.push(Allowed {
                        diagnostic: d,
                        reason: self.allow[i].reason.clone(),
                    });
                }
                None => {
                    if let Some(rel) = rel.as_deref() {
                        self.note_near_miss(&d, rel);
                    }
                    kept.push(d)
                }
            }
        }
        r.diagnostics = kept;
    }

    /// Remembers `d` for each allowance it nearly matches and that has no near miss yet.
    fn note_near_miss(&mut self, d: &Diagnostic, rel: &str) {
        for (a, near) in self.allow.iter().zip(self.near.iter_mut()) {
            if near.is_none()
                && a.rule == d.rule.id
                && a.glob.is_match(rel)
                && a.text
                    .as_deref()
                    .is_some_and(|t| near::nearly(&d.message, t))
            {
                let at = match d.span {
                    Some(_) => format!("{rel}:{}:{}", d.region.line, d.region.col),
                    None => rel.to_string(),
                };
                *near = Some(format!("{at}: {}", d.message));
            }
        }
    }

    /// `unused-allowance` warnings, one per allowance that took nothing, at its line; one that
    /// nearly matched a finding names it.
    pub(crate) fn unused(&self) -> Vec<Diagnostic> {
        let idx = LineIndex::new(self.text.as_bytes());
        self.allow
            .iter()
            .zip(&self.used)
            .zip(&self.near)
            .filter(|((_, n), _)| **n == 0)
            .map(|((a, _), near)| {
                let mut d = Diagnostic::line(
                    &UNUSED_ALLOWANCE,
                    &self.shown,
                    a.span,
                    format!(
                        "[[allow]] matches nothing: rule {}, path \"{}\"{}",
                        a.rule,
                        a.path,
                        a.text
                            .as_deref()
                            .map(|t| format!(", text \"{t}\""))
                            .unwrap_or_default()
                    ) + &near
                        .as_deref()
                        .map(|n| {
                            format!("; it nearly matches {n} (text is compared as quoted, spaces and quotes included)")
                        })
                        .unwrap_or_default(),
                );
                d.region = idx.region(a.span);
                d
            })
            .collect()
    }
}

impl Allowance {
    fn matches(&self, d: &Diagnostic, rel: &str) -> bool {
        d.rule.id == self.rule
            && self.glob.is_match(rel)
            && self.text.as_deref().is_none_or(|t| quoted(&d.message, t))
    }
}

/// Whether the message quotes `text` (`injection-shaped phrase "Ignore all previous
/// instructions"`), compared without regard to case, as the phrases are matched.
fn quoted(message: &str, text: &str) -> bool {
    near::quote(message).is_some_and(|q| q.to_lowercase() == text.to_lowercase())
}

/// `path` relative to `base`, `/`-separated; `None` outside it.
fn relative(base: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(base).ok()?;
    Some(
        rel.components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join("/"),
    )
}

/// The file's text, refused past [`MAX_FILE_BYTES`] without reading further.
fn read_capped(path: &Path) -> Result<String, String> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    text_of(bytes)
}

/// A configuration file's bytes as text: at most [`MAX_FILE_BYTES`], UTF-8.
pub(crate) fn text_of(bytes: Vec<u8>) -> Result<String, String> {
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(format!(
            "over {MAX_FILE_BYTES} bytes; a configuration file is smaller"
        ));
    }
    String::from_utf8(bytes).map_err(|_| "not UTF-8".to_string())
}

/// Each value within its limit; the error names the key and the lengths, never the value.
fn check_lengths(a: &RawAllow) -> Result<(), String> {
    let texts = [
        ("rule", Some(&a.rule)),
        ("text", a.text.as_ref()),
        ("reason", Some(&a.reason)),
    ];
    let long = texts
        .iter()
        .filter_map(|(k, v)| Some((*k, v.as_ref()?.len(), MAX_TEXT_BYTES)))
        .chain([("path", a.path.len(), MAX_GLOB_BYTES)])
        .find(|(_, n, max)| n > max);
    match long {
        Some((key, n, max)) => Err(format!("{key} is {n} bytes long; at most {max}")),
        None => Ok(()),
    }
}

/// The `path` glob, compiled; the error is globset's reason alone (the glob may hold anything,
/// line breaks included, so it is not repeated).
fn compile(path: &str) -> Result<GlobSet, String> {
    let glob = Glob::new(path).map_err(|e| format!("not a valid glob: {}", e.kind()))?;
    GlobSetBuilder::new()
        .add(glob)
        .build()
        .map_err(|e| format!("the glob does not compile: {}", e.kind()))
}

/// A rule an allowance may name: a warning of the catalogue.
fn check_rule(id: &str) -> Result<(), String> {
    match rules::find(id) {
        Some(r) if r.severity == Severity::Error => Err(format!(
            "rule {id} is an error: errors cannot be allowed (hippo would refuse the pack)"
        )),
        Some(_) => Ok(()),
        None => {
            let warnings: Vec<&str> = rules::catalogue()
                .iter()
                .filter(|r| r.severity == Severity::Warning)
                .map(|r| r.id)
                .collect();
            Err(format!(
                "no rule named {}; {}",
                crate::core::escape::line(id),
                suggest::help(id, &warnings, "the warnings that can be allowed")
            ))
        }
    }
}

mod near;
#[cfg(test)]
mod tests;
