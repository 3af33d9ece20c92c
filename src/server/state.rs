//! What the server holds between messages: the open documents, the packs waiting for a check,
//! and each pack's latest check (its files as checked, its findings, what was published).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use lsp_server::{Connection, Message, Notification};
use lsp_types::notification::Notification as _;
use lsp_types::{TextDocumentContentChangeEvent, Uri};

use super::documents::{self, Document, Documents};
use super::position::{Encoding, Lines, apply_change};
use crate::allow::Config;
use crate::core::Diagnostic;
use crate::pack::{Pack, walk};

/// A pack's latest check.
pub(crate) struct Checked {
    /// The pack folder, as the allowances read it.
    pub(crate) dir: String,
    /// The pack as checked: the disk's files with the open documents' text in their place.
    pub(crate) pack: Pack,
    /// Its findings once the allowances took theirs, in `check`'s order.
    pub(crate) findings: Vec<Diagnostic>,
    /// The configuration the check read, as read (for the fixes, which honour its allowances).
    pub(crate) config: Option<Config>,
    /// The files whose last published diagnostics were not empty (to clear when fixed).
    published: BTreeSet<String>,
}

pub(crate) struct Server {
    pub(crate) encoding: Encoding,
    pub(crate) documents: Documents,
    /// The packs by folder, once checked.
    pub(crate) packs: HashMap<PathBuf, Checked>,
    /// The packs a message changed since their last check.
    dirty: BTreeSet<PathBuf>,
    /// Configuration files already said to be unreadable (said once each).
    said: BTreeSet<String>,
}

impl Server {
    pub(crate) fn new(encoding: Encoding) -> Server {
        Server {
            encoding,
            documents: Documents::default(),
            packs: HashMap::new(),
            dirty: BTreeSet::new(),
            said: BTreeSet::new(),
        }
    }

    pub(crate) fn open(&mut self, uri: Uri, text: String, version: i32) {
        let Some(path) = documents::path_of(&uri) else {
            return;
        };
        self.touch_path(&path);
        let doc = Document { uri, text, version };
        self.documents.insert(path, doc);
    }

    pub(crate) fn change(
        &mut self,
        uri: &Uri,
        version: i32,
        changes: &[TextDocumentContentChangeEvent],
    ) {
        let Some(path) = documents::path_of(uri) else {
            return;
        };
        let encoding = self.encoding;
        if let Some(doc) = self.documents.get_mut(&path) {
            for c in changes {
                apply_change(&mut doc.text, c.range, &c.text, encoding);
            }
            doc.version = version;
            self.touch_path(&path);
        }
    }

    pub(crate) fn close(&mut self, uri: &Uri) {
        if let Some(path) = documents::path_of(uri) {
            self.documents.remove(&path);
            self.touch_path(&path);
        }
    }

    /// A file changed on disk (saved, or changed outside the editor): its pack is checked again.
    pub(crate) fn touched(&mut self, uri: &Uri) {
        if let Some(path) = documents::path_of(uri) {
            self.touch_path(&path);
        }
    }

    fn touch_path(&mut self, path: &Path) {
        if let Some(dir) = documents::pack_of(path) {
            self.dirty.insert(dir);
        }
    }

    /// The pack of an open document and the document's pack-relative path.
    pub(crate) fn locate(&self, uri: &Uri) -> Option<(&Checked, String, &Document)> {
        let path = documents::path_of(uri)?;
        let doc = self.documents.get(&path)?;
        let dir = documents::pack_of(&path)?;
        let checked = self.packs.get(&dir)?;
        let parts: Option<Vec<&str>> = path
            .strip_prefix(&dir)
            .ok()?
            .components()
            .map(|c| c.as_os_str().to_str())
            .collect();
        Some((checked, parts?.join("/"), doc))
    }

    /// Checks every pack waiting for a check and publishes its files' diagnostics.
    pub(crate) fn flush(&mut self, out: &Connection) -> anyhow::Result<()> {
        for dir in std::mem::take(&mut self.dirty) {
            let published = self
                .packs
                .remove(&dir)
                .map(|c| c.published)
                .unwrap_or_default();
            let Some(mut checked) = self.check(&dir, out)? else {
                // The pack is gone (or unreadable): what it showed is cleared.
                for file in published {
                    let uri = self.uri_in(&dir, &file);
                    publish(out, uri, Vec::new(), None)?;
                }
                continue;
            };
            let by_file = self.diagnostics_by_file(&dir, &checked);
            let mut now = BTreeSet::new();
            let open: BTreeMap<String, &Document> = self.documents.in_pack(&dir).collect();
            let files: BTreeSet<&String> = by_file
                .keys()
                .chain(&published)
                .chain(open.keys())
                .collect();
            for file in files {
                let list = by_file.get(file).cloned().unwrap_or_default();
                if !list.is_empty() {
                    now.insert(file.clone());
                }
                let (uri, version) = match open.get(file) {
                    Some(d) => (Some(d.uri.clone()), Some(d.version)),
                    None => (self.uri_in(&dir, file), None),
                };
                publish(out, uri, list, version)?;
            }
            checked.published = now;
            self.packs.insert(dir, checked);
        }
        Ok(())
    }

    fn uri_in(&self, dir: &Path, file: &str) -> Option<Uri> {
        documents::uri_of(&dir.join(file))
    }

    /// The LSP diagnostics of each file of a checked pack.
    fn diagnostics_by_file(
        &self,
        dir: &Path,
        checked: &Checked,
    ) -> BTreeMap<String, Vec<lsp_types::Diagnostic>> {
        let mut findings: BTreeMap<String, Vec<&Diagnostic>> = BTreeMap::new();
        for d in &checked.findings {
            let file = d.file.clone().unwrap_or_else(|| "pack.toml".to_string());
            findings.entry(file).or_default().push(d);
        }
        let mut by_file = BTreeMap::new();
        for (file, list) in findings {
            let Some(uri) = self.uri_in(dir, &file) else {
                continue;
            };
            // The file's lines once, for all its findings.
            let text = checked.pack.file(&file).and_then(|f| f.text());
            let lines = text.map(|t| Lines::new(t, self.encoding));
            let converted = list
                .into_iter()
                .flat_map(|d| super::convert::diagnostics(d, lines.as_ref(), &uri, self.encoding))
                .collect();
            by_file.insert(file, converted);
        }
        by_file
    }

    /// One check of the pack at `dir` (`check`'s, with the open documents' text); `None` when the
    /// folder cannot be read.
    fn check(&mut self, dir: &Path, out: &Connection) -> anyhow::Result<Option<Checked>> {
        let Ok(mut pack) = walk::load(dir) else {
            return Ok(None);
        };
        for (rel, doc) in self.documents.in_pack(dir) {
            pack.overlay(&rel, doc.text.as_bytes());
        }
        let shown = dir.display().to_string();
        let (mut report, loaded) = crate::check::check_pack(&shown, pack);
        let config = match super::config::for_pack(dir) {
            Ok(c) => c,
            Err(why) => {
                if self.said.insert(why.clone()) {
                    log(out, &format!("hippo-packs: configuration not read: {why}"))?;
                }
                None
            }
        };
        if let Some(mut c) = config.clone() {
            c.apply(&mut report);
        }
        Ok(Some(Checked {
            dir: shown,
            pack: loaded.pack,
            findings: report.diagnostics,
            config,
            published: BTreeSet::new(),
        }))
    }
}

fn publish(
    out: &Connection,
    uri: Option<Uri>,
    diagnostics: Vec<lsp_types::Diagnostic>,
    version: Option<i32>,
) -> anyhow::Result<()> {
    let Some(uri) = uri else {
        return Ok(());
    };
    let params = lsp_types::PublishDiagnosticsParams {
        uri,
        diagnostics,
        version,
    };
    let method = lsp_types::notification::PublishDiagnostics::METHOD.to_string();
    out.sender
        .send(Message::Notification(Notification::new(method, params)))?;
    Ok(())
}

fn log(out: &Connection, message: &str) -> anyhow::Result<()> {
    let params = lsp_types::LogMessageParams {
        typ: lsp_types::MessageType::WARNING,
        message: message.to_string(),
    };
    let method = lsp_types::notification::LogMessage::METHOD.to_string();
    out.sender
        .send(Message::Notification(Notification::new(method, params)))?;
    Ok(())
}
