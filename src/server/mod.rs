//! `hippo-packs server`: a language server on standard input and output (docs/editors.md).
//!
//! Synchronous, one thread: every message is read in turn; once the queue of incoming messages
//! is empty, each pack an opened or changed document belongs to is checked once, with the
//! editor's unsaved text for its open files and the disk for the rest, and the diagnostics of
//! each of its files are published. A burst of changes is so one check, with no timer. Hover
//! and code actions answer from the latest check (made first when a change is waiting). The
//! server never writes a file (a fix is an edit the editor makes) and never opens a connection.

mod actions;
mod config;
mod convert;
mod documents;
mod hover;
mod position;
mod state;

use lsp_server::{Connection, Message, Notification, Request, Response};
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;

use position::Encoding;
use state::Server;

/// Runs the server until the client asks it to exit; `Err` is a broken connection.
pub(crate) fn run() -> anyhow::Result<()> {
    let (connection, io) = Connection::stdio();
    let (id, params) = connection.initialize_start()?;
    let params: lsp_types::InitializeParams = serde_json::from_value(params)?;
    let encoding = Encoding::negotiate(
        params
            .capabilities
            .general
            .as_ref()
            .and_then(|g| g.position_encodings.as_deref()),
    );
    let result = lsp_types::InitializeResult {
        capabilities: capabilities(encoding),
        server_info: Some(lsp_types::ServerInfo {
            name: "hippo-packs".to_string(),
            version: Some(env!("CARGO_PKG_VERSION").to_string()),
        }),
    };
    connection.initialize_finish(id, serde_json::to_value(result)?)?;
    let mut server = Server::new(encoding);
    serve(&connection, &mut server)?;
    drop(connection);
    io.join()?;
    Ok(())
}

fn capabilities(encoding: Encoding) -> lsp_types::ServerCapabilities {
    use lsp_types::*;
    ServerCapabilities {
        position_encoding: Some(encoding.kind()),
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                save: Some(TextDocumentSyncSaveOptions::Supported(true)),
                ..TextDocumentSyncOptions::default()
            },
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
            code_action_kinds: Some(vec![CodeActionKind::QUICKFIX, actions::fix_all_kind()]),
            resolve_provider: Some(false),
            ..CodeActionOptions::default()
        })),
        ..ServerCapabilities::default()
    }
}

/// The main loop: each message handled, then, when no other is waiting, the checks they called
/// for, then their diagnostics published. It ends at the client's `exit` or at the end of its
/// input (a client that quit without one).
fn serve(connection: &Connection, server: &mut Server) -> anyhow::Result<()> {
    while let Ok(first) = connection.receiver.recv() {
        let mut next = Some(first);
        while let Some(message) = next.take() {
            match message {
                Message::Request(req) if req.method == lsp_types::request::Shutdown::METHOD => {
                    // Answered; the loop goes on to the client's `exit` (or the end of input).
                    let done = Response::new_ok(req.id, ());
                    connection.sender.send(Message::Response(done))?;
                }
                Message::Request(req) => {
                    // An answer reads the latest check: the changes before it come first.
                    server.flush(connection)?;
                    let response = answer(server, req);
                    connection.sender.send(Message::Response(response))?;
                }
                Message::Notification(n) => {
                    if n.method == lsp_types::notification::Exit::METHOD {
                        return Ok(());
                    }
                    notify(server, n);
                }
                Message::Response(_) => {}
            }
            next = connection.receiver.try_recv().ok();
        }
        server.flush(connection)?;
    }
    Ok(())
}

fn answer(server: &mut Server, req: Request) -> Response {
    use lsp_types::request::{CodeActionRequest, HoverRequest};
    let id = req.id.clone();
    let result = match req.method.as_str() {
        HoverRequest::METHOD => serde_json::from_value(req.params)
            .map(|p| serde_json::to_value(hover::hover(server, &p)).unwrap_or_default()),
        CodeActionRequest::METHOD => serde_json::from_value(req.params)
            .map(|p| serde_json::to_value(actions::actions(server, &p)).unwrap_or_default()),
        _ => {
            return Response::new_err(
                id,
                lsp_server::ErrorCode::MethodNotFound as i32,
                format!("hippo-packs server does not answer {}", req.method),
            );
        }
    };
    match result {
        Ok(value) => Response::new_ok(id, value),
        Err(e) => Response::new_err(
            id,
            lsp_server::ErrorCode::InvalidParams as i32,
            e.to_string(),
        ),
    }
}

fn notify(server: &mut Server, n: Notification) {
    use lsp_types::notification::{
        DidChangeTextDocument, DidChangeWatchedFiles, DidCloseTextDocument, DidOpenTextDocument,
        DidSaveTextDocument,
    };
    let params = n.params;
    match n.method.as_str() {
        DidOpenTextDocument::METHOD => {
            if let Ok(p) = serde_json::from_value::<lsp_types::DidOpenTextDocumentParams>(params) {
                let d = p.text_document;
                server.open(d.uri, d.text, d.version);
            }
        }
        DidChangeTextDocument::METHOD => {
            if let Ok(p) = serde_json::from_value::<lsp_types::DidChangeTextDocumentParams>(params)
            {
                server.change(
                    &p.text_document.uri,
                    p.text_document.version,
                    &p.content_changes,
                );
            }
        }
        DidCloseTextDocument::METHOD => {
            if let Ok(p) = serde_json::from_value::<lsp_types::DidCloseTextDocumentParams>(params) {
                server.close(&p.text_document.uri);
            }
        }
        DidSaveTextDocument::METHOD => {
            if let Ok(p) = serde_json::from_value::<lsp_types::DidSaveTextDocumentParams>(params) {
                server.touched(&p.text_document.uri);
            }
        }
        DidChangeWatchedFiles::METHOD => {
            if let Ok(p) = serde_json::from_value::<lsp_types::DidChangeWatchedFilesParams>(params)
            {
                p.changes.iter().for_each(|c| server.touched(&c.uri));
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests;
