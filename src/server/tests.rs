use std::path::Path;

use lsp_server::{Connection, Message, Notification};
use lsp_types::notification::Notification as _;

use super::documents::uri_of;
use super::position::Encoding;
use super::state::Server;

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            copy(&e.path(), &to.join(e.file_name()));
        } else {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

fn note<N: lsp_types::notification::Notification>(params: N::Params) -> Message {
    Message::Notification(Notification::new(N::METHOD.to_string(), params))
}

/// A `didChange` of the whole text.
fn change(uri: &lsp_types::Uri, version: i32, text: String) -> Message {
    note::<lsp_types::notification::DidChangeTextDocument>(lsp_types::DidChangeTextDocumentParams {
        text_document: lsp_types::VersionedTextDocumentIdentifier::new(uri.clone(), version),
        content_changes: vec![lsp_types::TextDocumentContentChangeEvent {
            range: None,
            range_length: None,
            text,
        }],
    })
}

#[test]
fn queued_changes_are_checked_once_with_the_last_text() {
    use lsp_types::notification::{DidOpenTextDocument, PublishDiagnostics};
    let t = tempfile::tempdir().unwrap();
    let pack = t.path().join("decision-log");
    copy(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/packs/decision-log"),
        &pack,
    );
    let prompt = pack.join("prompts/decision-log.md");
    let uri = uri_of(&prompt).unwrap();
    let text = std::fs::read_to_string(&prompt).unwrap();
    let (server_side, client) = Connection::memory();
    let Connection { sender, receiver } = client;
    sender
        .send(note::<DidOpenTextDocument>(
            lsp_types::DidOpenTextDocumentParams {
                text_document: lsp_types::TextDocumentItem::new(
                    uri.clone(),
                    "markdown".into(),
                    1,
                    text.clone(),
                ),
            },
        ))
        .unwrap();
    for version in 2..=4 {
        // The last change puts a U+200B in the prompt.
        let now = match version {
            4 => text.replacen("## Note", "## No\u{200B}te", 1),
            _ => format!("{text}\n"),
        };
        sender.send(change(&uri, version, now)).unwrap();
    }
    // Every message is queued before the server reads one; then the client hangs up.
    drop(sender);
    super::serve(&server_side, &mut Server::new(Encoding::Utf16)).unwrap();
    let published: Vec<lsp_types::PublishDiagnosticsParams> = receiver
        .try_iter()
        .filter_map(|m| match m {
            Message::Notification(n) if n.method == PublishDiagnostics::METHOD => {
                serde_json::from_value(n.params).ok()
            }
            _ => None,
        })
        .filter(|p: &lsp_types::PublishDiagnosticsParams| p.uri == uri)
        .collect();
    assert_eq!(published.len(), 1, "one check of four queued messages");
    assert_eq!(published[0].version, Some(4));
    let codes: Vec<_> = published[0]
        .diagnostics
        .iter()
        .map(|d| d.code.clone())
        .collect();
    assert_eq!(
        codes,
        [Some(lsp_types::NumberOrString::String(
            "invisible-character".into()
        ))],
        "the last text's finding"
    );
    assert_eq!(
        std::fs::read_to_string(&prompt).unwrap(),
        text,
        "nothing written"
    );
}
