#!/usr/bin/env python3
"""Lists Rust source files over 500 lines and functions over 80 lines, and every
`#[allow(clippy::too_many_arguments)]`; exits 1 when it finds one (docs/architecture.md, "Sizes").

usage: scripts/sizes.py [ROOT] [--max-file 500] [--max-fn 80]
       scripts/sizes.py --self-test   (a control: a tree with one of each problem must fail)

A function's length runs from the line of its `fn` to the line of its closing brace, comments
and blank lines included (what a reader scrolls through). The scan skips strings, raw strings,
character literals and comments, so a brace inside them does not count.
"""
import argparse
import re
import sys
from pathlib import Path

# Folders scanned, relative to the root.
SCANNED = ["src", "tests", "benches", "fuzz/fuzz_targets"]
# Explicit exclusions, each with its reason. Keep this empty when you can.
EXCLUDED = {
}

FN = re.compile(rb"\bfn\s+([A-Za-z_][A-Za-z0-9_]*)")
ALLOW = re.compile(rb"allow\s*\(\s*clippy::too_many_arguments")


def mask(src: bytes) -> bytes:
    """The source with the insides of comments, strings and character literals blanked
    (newlines kept), so braces and `fn` can be found by position."""
    out = bytearray(src)
    i, n = 0, len(src)

    def blank(a, b):
        for k in range(a, b):
            if out[k] != 0x0A:
                out[k] = 0x20

    while i < n:
        c = src[i]
        if src.startswith(b"//", i):
            j = src.find(b"\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif src.startswith(b"/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if src.startswith(b"/*", j):
                    depth, j = depth + 1, j + 2
                elif src.startswith(b"*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            blank(i, j)
            i = j
        elif c == ord("r") and re.match(rb'r(#*)"', src[i:i + 260]) and not _ident_before(src, i):
            hashes = re.match(rb'r(#*)"', src[i:]).group(1)
            end = src.find(b'"' + hashes, i + 2 + len(hashes))
            end = n if end < 0 else end + 1 + len(hashes)
            blank(i, end)
            i = end
        elif c == ord('"'):
            j = i + 1
            while j < n and src[j] != ord('"'):
                j += 2 if src[j] == ord("\\") else 1
            blank(i, j + 1)
            i = j + 1
        elif c == ord("'"):
            m = re.match(rb"'(\\.[^']*|[^\\'])'", src[i:i + 16], re.S)
            if m:  # a character literal, not a lifetime
                blank(i, i + m.end())
                i += m.end()
            else:
                i += 1
        else:
            i += 1
    return bytes(out)


def _ident_before(src, i):
    return i > 0 and (chr(src[i - 1]).isalnum() or src[i - 1] == ord("_"))


def functions(masked: bytes):
    """(name, first line, last line) of every function with a body."""
    for m in FN.finditer(masked):
        j, depth = m.end(), 0
        # The body starts at the first `{` before any `;` (a declaration without a body).
        while j < len(masked) and masked[j] not in b"{;":
            j += 1
        if j >= len(masked) or masked[j] == ord(";"):
            continue
        while j < len(masked):
            if masked[j] == ord("{"):
                depth += 1
            elif masked[j] == ord("}"):
                depth -= 1
                if depth == 0:
                    break
            j += 1
        first = masked.count(b"\n", 0, m.start()) + 1
        last = masked.count(b"\n", 0, min(j, len(masked))) + 1
        yield m.group(1).decode(), first, last


def scan(root, max_file, max_fn):
    problems = []
    for folder in SCANNED:
        for path in sorted((root / folder).rglob("*.rs")):
            rel = path.relative_to(root).as_posix()
            if any(rel.startswith(x) for x in EXCLUDED):
                continue
            src = path.read_bytes()
            lines = src.count(b"\n") + (0 if src.endswith(b"\n") or not src else 1)
            if lines > max_file:
                problems.append(f"{rel}: {lines} lines (at most {max_file})")
            masked = mask(src)
            for name, first, last in functions(masked):
                if last - first + 1 > max_fn:
                    problems.append(f"{rel}:{first}: fn {name} is {last - first + 1} lines (at most {max_fn})")
            for m in ALLOW.finditer(masked):
                line = masked.count(b"\n", 0, m.start()) + 1
                problems.append(f"{rel}:{line}: allow(clippy::too_many_arguments)")
    return problems


def self_test():
    """The scan on a made-up tree: braces in strings, comments, raw strings and character
    literals do not end a function; a long one, a long file and the allow are all caught."""
    import tempfile
    body = "\n".join(f"    let x{i} = '}}'; // }}" for i in range(79))
    short = 'fn short() {\n    let s = r#"}}}}"#;\n    let t = "}}\\"}}";\n}\n'
    long = f"fn long() {{\n{body}\n    let y = 1;\n}}\n"  # 82 lines
    with tempfile.TemporaryDirectory() as d:
        src = Path(d) / "src"
        src.mkdir()
        (src / "a.rs").write_text(short + long + "#[allow(clippy::too_many_arguments)]\nfn f() {}\n")
        (src / "b.rs").write_text("// x\n" * 501)
        (src / "c.rs").write_text(short + "fn ok() {\n" + "\n" * 77 + "}\n")
        got = scan(Path(d), 500, 80)
    want = ["src/a.rs:5: fn long is 82 lines (at most 80)", "src/a.rs:87: allow(clippy::too_many_arguments)",
            "src/b.rs: 501 lines (at most 500)"]
    if got != want:
        print(f"self-test FAILED: got {got}, want {want}")
        return 1
    print("sizes self-test: 3 planted problems found, nothing else")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    ap = argparse.ArgumentParser()
    ap.add_argument("root", nargs="?", default=str(Path(__file__).resolve().parent.parent))
    ap.add_argument("--max-file", type=int, default=500)
    ap.add_argument("--max-fn", type=int, default=80)
    a = ap.parse_args()
    problems = scan(Path(a.root), a.max_file, a.max_fn)
    for x, why in EXCLUDED.items():
        print(f"SKIPPED {x}: {why}")
    for p in problems:
        print(p)
    print(f"sizes: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
