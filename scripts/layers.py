#!/usr/bin/env python3
"""Checks that every `crate::` import in src/ points down the layers of docs/layers.toml.

usage: scripts/layers.py [ROOT]        (default: the repository holding this script)
       scripts/layers.py --self-test   (a control: a made-up tree with an arrow up must fail)

docs/layers.toml lists the layers, lowest first; a module may use modules of its own layer and
of the layers below. A module is a top-level name under src/ (`src/rules/` or `src/rules.rs` is
`rules`). Every `crate::NAME` path in src/**/*.rs, in `use` lines, in code and in each item of a
`crate::{a, b::c}` group, is an arrow from the file's module to NAME; `super::` paths stay inside
a module and are not checked. Comments and test code (after `#[cfg(test)]`) are not checked.

An arrow up a layer is reported as `path:line: a -> b (layer i -> layer j)` unless the line or the
line above carries `// layers: allow <reason>`; a module under src/ missing from the file is
reported too. Exits 0 when nothing is reported, 1 otherwise, 2 when docs/layers.toml cannot be
read.
"""
import re
import sys
import tempfile
from pathlib import Path

try:
    import tomllib
except ImportError:  # Python < 3.11
    import tomli as tomllib  # type: ignore

ROOTS = {"main", "lib"}


def module_of(src: Path, path: Path) -> str:
    rel = path.relative_to(src)
    return rel.parts[0][:-3] if len(rel.parts) == 1 else rel.parts[0]


def group_items(code: str, start: int):
    """(offset, name) for each item of the `{...}` group that opens just before `start`."""
    depth, item_start = 1, start
    for i in range(start, len(code)):
        c = code[i]
        depth += c == "{"
        depth -= c == "}"
        if (depth == 1 and c == ",") or depth == 0:
            name = re.match(r"\s*(\w+)", code[item_start:i])
            if name and name.group(1) != "self":
                yield item_start + name.start(1), name.group(1)
            item_start = i + 1
        if depth == 0:
            return


def arrows(code: str):
    """(line, module) for every `crate::name` and every item of a `crate::{a, b::c}` group."""
    for m in re.finditer(r"\bcrate::(\{|\w+)", code):
        if m.group(1) != "{":
            yield code.count("\n", 0, m.start()) + 1, m.group(1)
            continue
        for offset, name in group_items(code, m.end()):
            yield code.count("\n", 0, offset) + 1, name


def code_of(text: str):
    """The lines before `#[cfg(test)]`, and the same lines with `//` comments cut."""
    lines = text.splitlines()
    cut = next((i for i, l in enumerate(lines) if re.match(r"\s*#\[cfg\(test\)\]", l)), len(lines))
    return lines, "\n".join(l.split("//", 1)[0] for l in lines[:cut])


def scan(root: Path, layers):
    rank = {m: i for i, group in enumerate(layers) for m in group}
    src = root / "src"
    problems, seen = [], set()
    for path in sorted(src.rglob("*.rs")):
        me = module_of(src, path)
        if me in ROOTS:
            continue
        seen.add(me)
        if me not in rank:
            continue
        lines, code = code_of(path.read_text(errors="replace"))
        for line_no, target in arrows(code):
            if target == me or target not in rank or rank[target] <= rank[me]:
                continue
            near = lines[line_no - 1] + (lines[line_no - 2] if line_no > 1 else "")
            if "layers: allow" in near:
                continue
            problems.append(f"{path.relative_to(root)}:{line_no}: {me} -> {target} "
                            f"(layer {rank[me]} -> layer {rank[target]})")
    problems += [f"src/{m}: not in docs/layers.toml" for m in sorted(seen - set(rank))]
    return problems, len(seen)


def self_test() -> int:
    """An arrow up in a `use` group and in code, an allowed one, a comment, test code and a
    module the file does not list: exactly the three problems are found."""
    layers = [["core"], ["rules"]]
    with tempfile.TemporaryDirectory() as d:
        src = Path(d) / "src"
        (src / "core").mkdir(parents=True)
        (src / "core" / "a.rs").write_text(
            "use crate::{core::x,\n    rules::y};\n"
            "fn f() { crate::rules::z(); }\n"
            "// crate::rules::in_a_comment\n"
            "// layers: allow a reason\nuse crate::rules::w;\n"
            "#[cfg(test)]\nmod tests { use crate::rules::t; }\n")
        (src / "rules.rs").write_text("use crate::core::x;\n")
        (src / "extra.rs").write_text("")
        got, _ = scan(Path(d), layers)
    want = ["src/core/a.rs:2: core -> rules (layer 0 -> layer 1)",
            "src/core/a.rs:3: core -> rules (layer 0 -> layer 1)",
            "src/extra: not in docs/layers.toml"]
    if got != want:
        print(f"layers self-test FAILED: got {got}, want {want}")
        return 1
    print("layers self-test: 3 planted problems found, nothing else")
    return 0


def main() -> int:
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent)
    conf = root / "docs" / "layers.toml"
    try:
        layers = tomllib.loads(conf.read_text())["layers"]
    except (OSError, KeyError, tomllib.TOMLDecodeError) as e:
        print(f"layers: cannot read {conf}: {e}")
        return 2
    problems, modules = scan(root.resolve(), layers)
    for p in problems:
        print(p)
    print(f"layers: {len(problems)} problem(s) in {modules} modules")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
