"""`hippo-packs server` through pytest-lsp's client: unsaved text diagnosed with its range in
the negotiated encoding, the quick fix, the diagnostics cleared, a pass file's change
re-diagnosing its prompt, hover, and no file written."""

from lsprotocol import types

from conftest import apply, position, settle, snapshot, uri

# A line where UTF-16 and UTF-8 columns differ before the U+200B (an emoji is 2 units and 4
# bytes; an e acute 1 unit and 2 bytes).
HIDDEN = "Caf\u00e9 \U0001F600 x\u200by\n"


def open_doc(client, path, text, version=1):
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri(path), language_id="markdown", version=version, text=text)
        )
    )


def change(client, path, version, text):
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri(path), version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


def rules_of(diagnostics):
    return sorted(d.code for d in diagnostics)


async def test_unsaved_hidden_character_is_placed_fixed_and_cleared(client, pack):
    before = snapshot(pack)
    prompt = pack / "prompts" / "decision-log.md"
    disk = prompt.read_text()
    text = disk.replace("## Note\n", "## Note\n" + HIDDEN, 1)
    open_doc(client, prompt, text)
    await settle(client)
    found = client.diagnostics[uri(prompt)]
    assert rules_of(found) == ["invisible-character"], found
    d = found[0]
    at = text.encode().index("\u200b".encode())
    assert d.range.start == position(text, at, client.encoding)
    assert d.range.end == position(text, at + 3, client.encoding)
    # Control: the two encodings place it apart.
    assert position(text, at, "utf-16") != position(text, at, "utf-8")
    assert d.severity == types.DiagnosticSeverity.Error
    assert d.code_description.href.endswith("/docs/rules.md#invisible-character")
    assert d.code_description.href.startswith("https://")
    assert "ZERO WIDTH SPACE" in d.message
    assert d.related_information, "the rule's help"

    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri(prompt)),
            range=d.range,
            context=types.CodeActionContext(diagnostics=[d]),
        )
    )
    quick = [a for a in actions if a.kind == types.CodeActionKind.QuickFix]
    assert [a.title for a in quick] == ["Remove U+200B ZERO WIDTH SPACE"], actions
    assert list(quick[0].diagnostics) == [d]
    assert any(a.title.startswith("Fix all safe fixes in this file") for a in actions)
    fixed = apply(text, quick[0].edit.changes[uri(prompt)], client.encoding)
    assert fixed == text.replace("\u200b", "")
    change(client, prompt, 2, fixed)
    await settle(client)
    assert client.diagnostics[uri(prompt)] == (), "cleared once fixed"
    assert snapshot(pack) == before, "the server wrote no file"


async def test_fix_all_makes_every_round_of_the_files_fixes(client, pack):
    prompt = pack / "prompts" / "decision-log.md"
    text = "\ufeff" + prompt.read_text().replace("\n", "\r\n").replace("## Note", "## No\u200bte", 1)
    open_doc(client, prompt, text)
    await settle(client)
    assert client.diagnostics[uri(prompt)], "control: findings to fix"
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri(prompt)),
            range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=0, character=0)),
            context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.SourceFixAll]),
        )
    )
    assert [a.kind for a in actions] == ["source.fixAll.hippo-packs"], actions
    fixed = apply(text, actions[0].edit.changes[uri(prompt)], client.encoding)
    assert fixed == prompt.read_text(), "the file as it was before the damage"
    change(client, prompt, 2, fixed)
    await settle(client)
    assert client.diagnostics[uri(prompt)] == ()


async def test_a_change_in_a_pass_file_re_diagnoses_its_prompt(client, pack):
    prompt = pack / "prompts" / "decision-log.md"
    pass_file = pack / "passes" / "decision-log.toml"
    open_doc(client, prompt, prompt.read_text())
    await settle(client)
    assert client.diagnostics[uri(prompt)] == (), "control: the good pack"
    text = pass_file.read_text()
    open_doc(client, pass_file, text)
    edited = text.replace('reads = ["sessions", "notes", "turns"]', 'reads = ["sessions", "notes"]')
    assert edited != text
    change(client, pass_file, 2, edited)
    await settle(client)
    found = client.diagnostics[uri(prompt)]
    assert rules_of(found) == ["placeholder-not-in-reads"], found
    body = prompt.read_text()
    at = body.encode().index(b"{{turns}}")
    assert found[0].range.start == position(body, at, client.encoding)
    change(client, pass_file, 3, text)
    await settle(client)
    assert client.diagnostics[uri(prompt)] == (), "cleared when the pass reads turns again"


async def test_hover_explains_the_rule(client, pack):
    prompt = pack / "prompts" / "decision-log.md"
    text = prompt.read_text().replace("## Note\n", "## Note\n" + HIDDEN, 1)
    open_doc(client, prompt, text)
    await settle(client)
    d = client.diagnostics[uri(prompt)][0]
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri(prompt)), position=d.range.start)
    )
    assert hover.contents.kind == types.MarkupKind.Markdown
    head = hover.contents.value.splitlines()[0]
    assert head.startswith("**invisible-character**: "), head
    assert "How to fix:" in hover.contents.value
    elsewhere = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri(prompt)), position=types.Position(line=0, character=0))
    )
    assert elsewhere is None, "control: no finding, no hover"
