//! The documents of one pack, parsed once, before any rule looks at them: pack.toml, the pass
//! files, the cases and their transcripts, theme.json, and the decoded strings of every TOML,
//! JSON and CSS file (theme.css among them). [`Documents::read`] is the one place a pack's
//! documents are parsed; the rules judge this value, `test` runs its cases from it and `--fix`
//! plans from it. Neither the rules nor the decoder parse anything.
//!
//! A parse keeps spans into the pack's bytes, so the value borrows the pack (`'p`). When the
//! check is over, [`Documents::detach`] lets the parses go and keeps what was read from them
//! (the manifest's name and version, the passes, the cases, the transcripts), which `test` reads
//! with the pack.

use super::case::CaseDef;
use super::decode::{self, Format, Parsed, View};
use super::front_matter::{self, FrontMatter};
use super::manifest::{Manifest, PackKind};
use super::markdown::{self, Markdown};
use super::pass::PassDef;
use super::theme::ThemeJson;
use super::toml_spans::{self, DeTable, Spanned, SyntaxError};
use super::transcript::{self, Transcript};
use crate::pack::place::Place;
use crate::pack::{Pack, PackFile};

/// Every Markdown reading of a pack ([`MarkdownFile`]).
fn markdown_files(pack: &Pack) -> Vec<MarkdownFile> {
    let mut out = Vec::new();
    for (index, (f, at)) in pack.files_placed().enumerate() {
        if !f.path.ends_with(".md") || f.in_tests() {
            continue;
        }
        let Some(text) = f.text() else { continue };
        let persona = pack.kind == PackKind::Pass && matches!(at, Some((Place::Persona, _)));
        if persona || markdown::may_render_apart(text) {
            out.push(MarkdownFile {
                index,
                reading: markdown::read(text),
            });
        }
    }
    out
}

/// A TOML document as the toml crate parsed it, or why it does not parse.
pub(crate) type Toml<'p> = Result<Spanned<DeTable<'p>>, SyntaxError>;

/// A pass file (`passes/<name>.toml` of a pass pack).
pub(crate) struct PassFile<'p> {
    pub(crate) path: &'p str,
    /// The pass's name: the file name without `.toml`.
    pub(crate) name: &'p str,
    /// Its parse; `None` when the file is not read whole as UTF-8 (the text and size rules say
    /// so).
    pub(crate) doc: Option<Toml<'p>>,
}

/// A `tests/<case>/case.toml` read whole as UTF-8.
pub(crate) struct CaseFile<'p> {
    pub(crate) path: &'p str,
    /// The case's folder name.
    pub(crate) name: &'p str,
    pub(crate) doc: Toml<'p>,
}

/// A case folder with a case.toml or a transcript, and its transcripts in [`Documents::transcripts`].
#[derive(Debug)]
pub(crate) struct CaseFolder {
    pub(crate) name: String,
    pub(crate) transcripts: std::ops::Range<usize>,
    /// Whether a `.jsonl` file under its `transcripts/` is not read whole as UTF-8.
    pub(crate) unreadable: bool,
}

/// A Markdown file outside `tests/` read whole as UTF-8, as CommonMark reads it
/// (`model::markdown`): every persona, and any other `.md` file whose reading can differ from
/// its text (`markdown::may_render_apart`; without such a byte there is nothing the rules
/// would read of it).
#[derive(Debug)]
pub(crate) struct MarkdownFile {
    /// The file's index in the pack.
    pub(crate) index: usize,
    pub(crate) reading: Markdown,
}

/// The front matter of a note (`tests/<case>/notes/`) or a template (`templates/`) of a pass
/// pack read whole as UTF-8, as YAML reads it (`model::front_matter`).
#[derive(Debug)]
pub(crate) struct FrontMatterFile<'p> {
    pub(crate) path: &'p str,
    pub(crate) reading: FrontMatter,
}

/// The documents of one pack, each parsed once.
#[derive(Default)]
pub(crate) struct Documents<'p> {
    /// pack.toml's parse, when it is read whole as UTF-8.
    pub(crate) manifest_toml: Option<Toml<'p>>,
    /// `None` when pack.toml is missing, not UTF-8 or does not parse.
    pub(crate) manifest: Option<Manifest>,
    /// Every pass file, in walk order (pass packs only).
    pub(crate) pass_files: Vec<PassFile<'p>>,
    /// The pass files that parsed, read, in walk order.
    pub(crate) passes: Vec<PassDef>,
    /// Whether every pass file parsed (the unreferenced warning needs that).
    pub(crate) passes_parsed: bool,
    /// Every case.toml read whole as UTF-8, in walk order (pass packs only).
    pub(crate) case_files: Vec<CaseFile<'p>>,
    /// A case for every one of [`Documents::case_files`], in the same order.
    pub(crate) cases: Vec<CaseDef>,
    /// Every case folder with a case.toml or a transcript, in walk order (pass packs only).
    pub(crate) case_folders: Vec<CaseFolder>,
    /// Every case's transcripts (`tests/<case>/transcripts/*.jsonl` read whole as UTF-8), case
    /// after case as [`Documents::case_folders`] lists them, each case's in walk order.
    pub(crate) transcripts: Vec<Transcript>,
    /// theme.json, when a theme pack's is read whole as UTF-8.
    pub(crate) theme_json: Option<ThemeJson>,
    /// The decoded strings of each TOML, JSON and CSS file with something to decode, by the
    /// file's index in the pack (ascending).
    views: Vec<(usize, View)>,
    /// The Markdown readings, by the file's index in the pack (ascending).
    markdown: Vec<MarkdownFile>,
    /// The front matter of the notes and templates, in walk order (pass packs only).
    pub(crate) front_matter: Vec<FrontMatterFile<'p>>,
}

impl<'p> Documents<'p> {
    /// Parses the pack's documents, each once, and reads the values `test` runs from.
    pub(crate) fn read(pack: &'p Pack) -> Documents<'p> {
        let mut docs = Documents {
            passes_parsed: true,
            ..Documents::default()
        };
        docs.manifest_toml = pack
            .file("pack.toml")
            .and_then(PackFile::text)
            .map(toml_spans::parse);
        if let Some(Ok(doc)) = &docs.manifest_toml {
            docs.manifest = Some(super::manifest::read(doc.get_ref()));
        }
        match pack.kind {
            PackKind::Theme => {
                docs.theme_json =
                    (pack.file("theme.json").and_then(PackFile::text)).map(super::theme::read);
            }
            PackKind::Pass => docs.read_pass_pack(pack),
        }
        docs.views = views(pack, &docs);
        docs.markdown = markdown_files(pack);
        docs
    }

    /// The decoded strings alone, for a rule run apart from the others (redaction's benchmark):
    /// each TOML and JSON file with a backslash parsed for the decoder alone.
    pub(crate) fn decoded(pack: &'p Pack) -> Documents<'p> {
        let mut docs = Documents::default();
        docs.views = views(pack, &docs);
        docs
    }

    /// The pass files, the cases and their transcripts.
    fn read_pass_pack(&mut self, pack: &'p Pack) {
        let mut folders: Vec<&'p str> = Vec::new();
        for (f, at) in pack.files_placed() {
            if let Some((Place::Note | Place::Template, _)) = at {
                if let Some(text) = f.text() {
                    self.front_matter.push(FrontMatterFile {
                        path: &f.path,
                        reading: front_matter::read(text),
                    });
                }
                continue;
            }
            if let Some((Place::Pass, Some(name))) = at {
                let doc = f.text().map(toml_spans::parse);
                match &doc {
                    Some(Ok(d)) => self
                        .passes
                        .push(super::pass::read(name, &f.path, d.get_ref())),
                    _ => self.passes_parsed = false,
                }
                self.pass_files.push(PassFile {
                    path: &f.path,
                    name,
                    doc,
                });
                continue;
            }
            let Some((name, rest)) = case_part(&f.path) else {
                continue;
            };
            let transcript = rest
                .strip_prefix("transcripts/")
                .is_some_and(|t| !t.contains('/'));
            if (rest == "case.toml" || transcript) && !folders.contains(&name) {
                folders.push(name);
            }
            if rest == "case.toml"
                && let Some(text) = f.text()
            {
                let doc = toml_spans::parse(text);
                self.cases
                    .push(super::case::read(pack, name, &f.path, doc.as_ref().ok()));
                self.case_files.push(CaseFile {
                    path: &f.path,
                    name,
                    doc,
                });
            }
        }
        for name in folders {
            let start = self.transcripts.len();
            let prefix = format!("tests/{name}/transcripts/");
            let mut unreadable = false;
            for f in pack.files_under(&prefix) {
                if !f.path.ends_with(".jsonl") {
                    continue;
                }
                match f.text() {
                    None => unreadable = true,
                    Some(t) if !f.path[prefix.len()..].contains('/') => {
                        self.transcripts.push(transcript::parse(&f.path, t));
                    }
                    Some(_) => {}
                }
            }
            self.case_folders.push(CaseFolder {
                name: name.to_string(),
                transcripts: start..self.transcripts.len(),
                unreadable,
            });
        }
    }

    /// The decoded strings of the file at `index` of the pack (`None`: nothing to decode, or a
    /// document that does not parse: it is judged as written).
    pub(crate) fn view(&self, index: usize) -> Option<&View> {
        let at = self.views.binary_search_by_key(&index, |(i, _)| *i).ok()?;
        Some(&self.views[at].1)
    }

    /// The Markdown reading of the file at `index` of the pack (`None`: not a Markdown file
    /// outside `tests/` read whole, or one whose reading cannot differ from its text).
    pub(crate) fn markdown(&self, index: usize) -> Option<&Markdown> {
        let at = (self.markdown)
            .binary_search_by_key(&index, |m| m.index)
            .ok()?;
        Some(&self.markdown[at].reading)
    }

    /// The transcripts of one case folder.
    pub(crate) fn transcripts_of(&self, folder: &CaseFolder) -> &[Transcript] {
        &self.transcripts[folder.transcripts.clone()]
    }

    /// The parse of the TOML file at `path`, when it is one of the pack's documents.
    pub(crate) fn toml(&self, path: &str) -> Option<&Toml<'p>> {
        if path == "pack.toml" {
            return self.manifest_toml.as_ref();
        }
        (self.pass_files.iter())
            .find(|p| p.path == path)
            .and_then(|p| p.doc.as_ref())
            .or_else(|| {
                (self.case_files.iter())
                    .find(|c| c.path == path)
                    .map(|c| &c.doc)
            })
    }

    /// What was read from the parses, without them: the value `test` reads once the check is
    /// over (the parses borrow the pack's bytes; the decoded strings are the check's alone).
    pub(crate) fn detach(self) -> Documents<'static> {
        Documents {
            manifest: self.manifest,
            passes: self.passes,
            passes_parsed: self.passes_parsed,
            cases: self.cases,
            case_folders: self.case_folders,
            transcripts: self.transcripts,
            theme_json: self.theme_json,
            ..Documents::default()
        }
    }
}

/// `tests/<case>/<rest>`: the case's name and the rest of the path.
fn case_part(path: &str) -> Option<(&str, &str)> {
    path.strip_prefix("tests/")?.split_once('/')
}

/// The decoded strings of every file read whole as UTF-8 that holds a backslash, in a format
/// with escapes, from the documents' parses; a TOML or JSON file that is none of the pack's
/// documents is parsed here, once, for the decoder alone.
fn views(pack: &Pack, docs: &Documents<'_>) -> Vec<(usize, View)> {
    let mut out = Vec::new();
    for (i, f) in pack.files().iter().enumerate() {
        let Some(format) = Format::of(&f.path) else {
            continue;
        };
        if memchr::memchr(b'\\', &f.bytes).is_none() {
            continue;
        }
        let Some(text) = f.text() else { continue };
        let view = match format {
            Format::Toml => match docs.toml(&f.path) {
                Some(Ok(doc)) => decode::decode(text, Parsed::Toml(doc)),
                Some(Err(_)) => None,
                None => toml_spans::parse(text)
                    .ok()
                    .and_then(|doc| decode::decode(text, Parsed::Toml(&doc))),
            },
            Format::Json => {
                let accepted = match (&docs.theme_json, f.path.as_str()) {
                    (Some(theme), "theme.json") => theme.accepted,
                    _ => super::json::accepted(text),
                };
                accepted
                    .then(|| decode::decode(text, Parsed::Json))
                    .flatten()
            }
            Format::JsonLines => match docs.transcripts.iter().find(|t| t.path == f.path) {
                Some(t) => decode::decode(text, Parsed::JsonLines(&|n| t.accepts(n))),
                None => {
                    let lines: Vec<&str> = text.split('\n').collect();
                    let accepted =
                        |n: usize| lines.get(n).is_some_and(|l| super::json::accepted(l));
                    decode::decode(text, Parsed::JsonLines(&accepted))
                }
            },
            Format::Css => decode::decode(text, Parsed::Css),
        };
        if let Some(view) = view {
            out.push((i, view));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pack::testing::text_pack;

    const CASE: &str = "protocol = \"HIPPO_V1\"\npass = \"p\"\n[[session]]\nid = \"s1\"\n";
    const LINE: &str = "{\"synthetic\": true}\n{\"type\": \"user\", \"sessionId\": \"s1\", \"timestamp\": \"2026-11-01T10:00:00Z\", \"message\": {\"content\": \"a\\u0062c\"}}\n";

    fn pack() -> Pack {
        text_pack(
            PackKind::Pass,
            &[
                ("pack.toml", "name = \"a\\u0062\"\nversion = \"1.0.0\"\n"),
                ("passes/p.toml", "prompt = \"prompts/p.md\"\n"),
                ("passes/q.toml", "prompt = [\n"),
                ("tests/c/case.toml", CASE),
                ("tests/c/transcripts/t.jsonl", LINE),
                ("tests/d/transcripts/u.jsonl", "{\"synthetic\": true}\n"),
                ("other.json", "{\"k\": \"\\u0041\",}"),
            ],
        )
    }

    #[test]
    fn each_document_is_read_once_into_its_place() {
        let p = pack();
        let docs = Documents::read(&p);
        assert_eq!(
            docs.manifest.as_ref().and_then(|m| m.name.as_deref()),
            Some("ab")
        );
        let passes: Vec<&str> = docs.pass_files.iter().map(|f| f.name).collect();
        assert_eq!(passes, ["p", "q"]);
        assert_eq!(docs.passes.len(), 1, "q does not parse");
        assert_eq!(docs.passes[0].prompt, "prompts/p.md");
        assert!(!docs.passes_parsed);
        assert_eq!(docs.cases.len(), 1);
        assert_eq!(docs.cases[0].pass.as_deref(), Some("p"));
        assert_eq!(docs.cases[0].sessions[0].id, "s1");
        let folders: Vec<(&str, usize)> = (docs.case_folders.iter())
            .map(|f| (f.name.as_str(), docs.transcripts_of(f).len()))
            .collect();
        assert_eq!(folders, [("c", 1), ("d", 1)]);
        // The decoder is handed the parses: pack.toml and the transcript decode; the JSON
        // file that serde_json refuses has no view.
        let index = |path: &str| p.files().iter().position(|f| f.path == path).unwrap();
        assert_eq!(
            docs.view(index("pack.toml")).map(|v| v.text.as_str()),
            Some("name = \"ab\"\nversion = \"1.0.0\"\n")
        );
        assert!(docs.view(index("tests/c/transcripts/t.jsonl")).is_some());
        assert!(docs.view(index("other.json")).is_none());
        // Control: the file without a backslash has none either.
        assert!(docs.view(index("passes/p.toml")).is_none());
    }

    #[test]
    fn detached_the_values_stay_and_the_parses_go() {
        let p = pack();
        let docs = Documents::read(&p);
        assert!(docs.toml("passes/q.toml").is_some_and(|d| d.is_err()));
        let kept = docs.detach();
        assert_eq!(kept.passes.len(), 1);
        assert_eq!(kept.cases.len(), 1);
        assert_eq!(kept.transcripts.len(), 2);
        assert!(kept.toml("pack.toml").is_none() && kept.pass_files.is_empty());
        assert!(kept.views.is_empty() && kept.case_files.is_empty());
        // Control: the same pack read again has its parses.
        assert!(Documents::read(&p).toml("pack.toml").is_some());
    }

    #[test]
    fn a_theme_pack_reads_its_theme_and_no_pass_documents() {
        let p = text_pack(
            PackKind::Theme,
            &[
                ("pack.toml", "kind = \"theme\"\n"),
                ("theme.json", "[\"\\u0041\"]"),
                ("passes/p.toml", "a = 1\n"),
            ],
        );
        let docs = Documents::read(&p);
        let theme = docs.theme_json.as_ref().expect("theme.json is read");
        assert!(theme.problem.is_some() && theme.accepted);
        let json = p.files().iter().position(|f| f.path == "theme.json");
        assert!(
            json.and_then(|i| docs.view(i)).is_some(),
            "an array is JSON: its strings decode"
        );
        assert!(docs.pass_files.is_empty() && docs.case_folders.is_empty());
        // Control: a pass pack with the same files has a pass file and no theme.
        let p = text_pack(PackKind::Pass, &[("passes/p.toml", "a = 1\n")]);
        let docs = Documents::read(&p);
        assert!(docs.theme_json.is_none() && docs.pass_files.len() == 1);
    }
}
