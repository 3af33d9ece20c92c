#!/usr/bin/env python3
"""Counts the `pub` items of src/ and exits 1 when there are more than the limit
(docs/architecture.md, "What is public").

usage: scripts/public.py [ROOT] [--max 250] [--list]
       scripts/public.py --self-test   (a control: a tree over the limit must fail)

Every `pub` keyword counts once: an item (fn, struct, enum, trait, const, static, type, mod,
macro), a field, a re-export (`pub use`). A restricted visibility (`pub(crate)`, `pub(super)`,
`pub(in ..)`) does not count; nor does `pub` inside a comment, a string or a character literal
(the scan masks them as scripts/sizes.py does). `--list` prints each counted line.
"""
import argparse
import re
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from sizes import mask  # noqa: E402  (the same masking of comments, strings and characters)

LIMIT = 250
# `pub` as a keyword, not followed by a restriction `(`.
PUB = re.compile(rb"(?<![A-Za-z0-9_])pub(?![A-Za-z0-9_])(?!\s*\()")


def count(root: Path):
    """(path, line) of every counted `pub` under root/src, in path order."""
    found = []
    for path in sorted((root / "src").rglob("*.rs")):
        masked = mask(path.read_bytes())
        rel = path.relative_to(root).as_posix()
        for m in PUB.finditer(masked):
            found.append((rel, masked.count(b"\n", 0, m.start()) + 1))
    return found


def self_test():
    """A made-up tree: restricted visibilities, comments, strings and a raw string do not count;
    an item, a field and a re-export do; a limit below the count fails."""
    src = (
        "pub use a::b;\n"
        "pub(crate) fn f() {}\n"
        "pub(super) struct S;\n"
        "pub(in crate::x) const C: u8 = 0;\n"
        "// pub fn in_a_comment() {}\n"
        "/* pub */ const D: &str = \"pub fn\";\n"
        "const E: &str = r#\"pub \"#;\n"
        "pub struct T {\n    pub field: u8,\n    republic: u8,\n}\n"
    )
    with tempfile.TemporaryDirectory() as d:
        (Path(d) / "src").mkdir()
        (Path(d) / "src" / "lib.rs").write_text(src)
        got = count(Path(d))
    want = [("src/lib.rs", 1), ("src/lib.rs", 8), ("src/lib.rs", 9)]
    if got != want:
        print(f"self-test FAILED: got {got}, want {want}")
        return 1
    if len(got) <= 2:
        print("self-test FAILED: a count of 3 must exceed a limit of 2")
        return 1
    print("public self-test: the item, the field and the re-export counted, nothing else")
    return 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    ap = argparse.ArgumentParser()
    ap.add_argument("root", nargs="?", default=str(Path(__file__).resolve().parent.parent))
    ap.add_argument("--max", type=int, default=LIMIT)
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    found = count(Path(a.root))
    if a.list:
        for path, line in found:
            print(f"{path}:{line}")
    over = len(found) > a.max
    print(f"public: {len(found)} pub item(s) in src/ (at most {a.max}){' TOO MANY' if over else ''}")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
