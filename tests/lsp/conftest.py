"""What the tests of `hippo-packs server` share: the client (pytest-lsp's, with Neovim 0.10's
capabilities, offering UTF-16 alone or UTF-8 first), a copy of the page's good pack, and the
protocol's positions computed here from byte offsets, apart from the server's own code."""

import os
import pathlib
import shutil
import sys

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

BIN = os.environ.get("HIPPO_PACKS")
if not BIN:
    sys.exit("HIPPO_PACKS names the binary under test (tests/it/language_server.rs sets it)")
ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKS = ROOT / "tests" / "packs"


@pytest_lsp.fixture(
    config=ClientServerConfig(server_command=[BIN, "server"]),
    params=["utf-16", "utf-8"],
)
async def client(lsp_client: LanguageClient, request):
    caps = client_capabilities("neovim@v0.10.0")
    caps.general.position_encodings = ["utf-16"] if request.param == "utf-16" else ["utf-8", "utf-16"]
    result = await lsp_client.initialize_session(types.InitializeParams(capabilities=caps))
    lsp_client.encoding = result.capabilities.position_encoding
    assert lsp_client.encoding == request.param, "the server takes UTF-8 when offered"
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def pack(tmp_path):
    """A copy of the page's good pack `decision-log`."""
    dest = tmp_path / "decision-log"
    shutil.copytree(PACKS / "decision-log", dest)
    return dest


def uri(path: pathlib.Path) -> str:
    return path.resolve().as_uri()


def line_starts(text: str) -> list[int]:
    """Byte offsets of the protocol's lines (ended by \\n, \\r\\n or \\r)."""
    b = text.encode()
    starts, i = [0], 0
    while i < len(b):
        if b[i : i + 2] == b"\r\n":
            i += 2
            starts.append(i)
        elif b[i : i + 1] in (b"\n", b"\r"):
            i += 1
            starts.append(i)
        else:
            i += 1
    return starts


def units(s: str, encoding: str) -> int:
    return len(s.encode("utf-16-le")) // 2 if encoding == "utf-16" else len(s.encode())


def position(text: str, offset: int, encoding: str) -> types.Position:
    """The protocol's position of a byte offset of `text`."""
    starts = line_starts(text)
    line = max(i for i, s in enumerate(starts) if s <= offset)
    col = text.encode()[starts[line] : offset].decode()
    return types.Position(line=line, character=units(col, encoding))


def offset(text: str, pos: types.Position, encoding: str) -> int:
    starts = line_starts(text)
    b = text.encode()
    start = starts[pos.line]
    line = b[start : starts[pos.line + 1] if pos.line + 1 < len(starts) else len(b)].decode()
    n = 0
    for i, c in enumerate(line):
        if n >= pos.character or c in "\r\n":
            return start + len(line[:i].encode())
        n += units(c, encoding)
    return start + len(line.encode())


def apply(text: str, edits: list[types.TextEdit], encoding: str) -> str:
    """`edits` made to `text`, last first."""
    spans = [(offset(text, e.range.start, encoding), offset(text, e.range.end, encoding), e.new_text) for e in edits]
    b = text.encode()
    for start, end, new in sorted(spans, reverse=True):
        b = b[:start] + new.encode() + b[end:]
    return b.decode()


async def settle(client: LanguageClient):
    """A request answered: every diagnostic the server published before it has arrived."""
    await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri="file:///nowhere"),
            position=types.Position(line=0, character=0),
        )
    )


def snapshot(folder: pathlib.Path) -> dict:
    """Every file's bytes and modification time."""
    return {
        p: (p.read_bytes(), p.stat().st_mtime_ns)
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }
