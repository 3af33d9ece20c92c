"""The server says what `check --format json` says, for every fixture variant
(tests/fixtures/<rule>/<variant>/): the same findings, each on its file, with its rule, severity,
message (the character it begins with named, as SARIF names it) and place (the JSON's line and
code-point columns turned into the protocol's positions here). A variant's `--config FILE` is
put at the root of a git repository, where the server finds it as `--config auto` does."""

import os
import pathlib
import re
import shlex
import shutil
import subprocess
import json
import tomllib
from urllib.parse import unquote

from lsprotocol import types

from conftest import BIN, PACKS, ROOT, position, settle

FIXTURES = ROOT / "tests" / "fixtures"
LIMIT = 65_536


def variants():
    return sorted(p for p in FIXTURES.glob("*/*") if p.is_dir())


def build_setup(variant: pathlib.Path, tmp: pathlib.Path):
    """A variant written as the good pack plus its changes (`setup.toml`, `changes/`), made as
    tests/fixtures.rs makes it: `tmp/pack` is the base pack less the removed paths, with the
    changed files laid over it."""
    setup = tomllib.loads((variant / "setup.toml").read_text())
    pack = tmp / "pack"
    shutil.copytree(PACKS / setup["base"], pack, symlinks=True)
    for rel in setup.get("remove", []):
        at = pack / rel
        shutil.rmtree(at) if at.is_dir() else at.unlink()
    shutil.rmtree(tmp / "changes", ignore_errors=True)
    if (variant / "changes").is_dir():
        shutil.copytree(variant / "changes", pack, symlinks=True, dirs_exist_ok=True)


def prepare(variant: pathlib.Path, tmp: pathlib.Path):
    """The variant made in `tmp`; its pack folders and the `check` arguments that read them."""
    shutil.copytree(variant, tmp, symlinks=True, dirs_exist_ok=True)
    if (variant / "setup.toml").exists():
        build_setup(variant, tmp)
    if (tmp / "setup").exists():
        subprocess.run(["bash", "setup"], cwd=tmp, env={**os.environ, "BASE": str(PACKS)}, check=True)
    args = (variant / "args").read_text().split() if (variant / "args").exists() else ["check", "pack"]
    dirs, extra, rest = [], [], args[1:]
    while rest:
        a = rest.pop(0)
        if a == "--config":
            os.makedirs(tmp / ".git", exist_ok=True)
            shutil.copy(tmp / rest.pop(0), tmp / ".hippo-packs.toml")
            extra = ["--config", "auto"]
        elif a in ("--case", "--prompts-dir"):
            rest.pop(0)
        elif not a.startswith("-"):
            dirs.append(a)
    return dirs, extra


def expected_message(d: dict) -> str:
    m = d["message"]
    name = d.get("char_name")
    head = re.match(r"U\+[0-9A-F]{4,6}", m)
    if name and head and not m[head.end():].startswith(" " + name):
        m = f"{m[:head.end()]} {name}{m[head.end():]}"
    return m


def text_of(path: pathlib.Path):
    if path.is_symlink() or not path.is_file():
        return None  # never opened: a FIFO would block
    try:
        b = path.read_bytes()
    except OSError:
        return None
    if len(b) > LIMIT:
        return None
    try:
        return b.decode()
    except UnicodeDecodeError:
        return None


def byte_offset(text: str, line: int, col: int) -> int:
    """The byte offset of a 1-based line (ended by \\n, as `check` counts) and code-point column."""
    lines = text.split("\n")
    before = sum(len(l.encode()) + 1 for l in lines[: line - 1])
    return before + len(lines[line - 1][: col - 1].encode()) if line - 1 < len(lines) else len(text.encode())


def place(text, where: dict, encoding: str):
    """The protocol's range of a JSON place; without the file's text, what the server falls back
    to (lines, and code-point columns for UTF-8)."""
    if text is None:
        cols = (where["column"] - 1, where["end_column"] - 1) if encoding == "utf-8" else (None, None)
        return (where["line"] - 1, cols[0], where["end_line"] - 1, cols[1])
    s = position(text, byte_offset(text, where["line"], where["column"]), encoding)
    e = position(text, byte_offset(text, where["end_line"], where["end_column"]), encoding)
    return (s.line, s.character, e.line, e.character)


def resolve(pack: pathlib.Path, rel: str) -> pathlib.Path:
    """The file a JSON report's path names: as written, or with its `U+XXXX` undone (the report
    escapes an invisible character of a name as the text output does; the server publishes the
    file's own URI)."""
    path = pack / rel
    if path.exists():
        return path
    return pack / re.sub(r"U\+([0-9A-F]{4,6})", lambda m: chr(int(m.group(1), 16)), rel)


def expected(report: dict, pack: pathlib.Path, encoding: str) -> list:
    out = []
    for d in report["diagnostics"]:
        path = resolve(pack, d["file"] or "pack.toml")
        text = text_of(path)
        severity = 1 if d["severity"] == "error" else 2
        for s in d.get("secrets") or [d]:
            message = expected_message(d) if s is d else f"redaction would change it ({s['kind']}): {s['masked']}"
            out.append((unquote(pathlib.Path(os.path.abspath(path)).as_uri()), d["rule"], severity, place(text, s, encoding), message))
    return sorted(out)


def published(client, pack: pathlib.Path, encoding: str) -> list:
    prefix = pathlib.Path(os.path.abspath(pack)).as_uri() + "/"
    out = []
    for uri, diags in client.diagnostics.items():
        if not uri.startswith(prefix):
            continue
        for d in diags:
            r = d.range
            got = (r.start.line, r.start.character, r.end.line, r.end.character)
            out.append((unquote(uri), d.code, int(d.severity), got, d.message))
    return sorted(out)


def loosen(rows, text_less: set):
    """UTF-16 columns of a file without text are not in the JSON: those are compared by line."""
    return [(u, c, s, (p[0], None, p[2], None) if u in text_less else p, m) for u, c, s, p, m in rows]


async def test_the_server_says_what_check_says_for_every_variant(client, tmp_path):
    checked = 0
    for i, variant in enumerate(variants()):
        name = f"{variant.parent.name}/{variant.name}"
        tmp = tmp_path / str(i)
        dirs, extra = prepare(variant, tmp)
        run = subprocess.run([BIN, "check", *dirs, "--format", "json", *extra], cwd=tmp, capture_output=True)
        report = json.loads(run.stdout)
        for dir_, r in zip(dirs, report["packs"]):
            pack = tmp / dir_
            if not (pack / "pack.toml").is_file():
                # The server knows a pack by its pack.toml: nothing of a folder without one.
                continue
            client.workspace_did_change_watched_files(
                types.DidChangeWatchedFilesParams(
                    changes=[types.FileEvent(uri=(pack / "pack.toml").resolve().as_uri(), type=types.FileChangeType.Changed)]
                )
            )
            await settle(client)
            want = expected(r, pack, client.encoding)
            got = published(client, pack, client.encoding)
            if client.encoding == "utf-16":
                text_less = {u for u, _, _, p, _ in want if p[1] is None}
                got = loosen(got, text_less)
            assert got == want, name
            checked += 1
        for dir_ in dirs:
            prefix = (tmp / dir_).resolve().as_uri() + "/"
            if not ((tmp / dir_) / "pack.toml").is_file():
                assert not any(u.startswith(prefix) and d for u, d in client.diagnostics.items()), name
    # Control: the variants were found and most hold a pack the server checked.
    assert checked > 100, checked
