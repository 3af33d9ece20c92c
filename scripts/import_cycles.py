#!/usr/bin/env python3
"""Finds import circles among the source files of src/ (docs/architecture.md).

An edge runs from a file to the file of every module it names: `crate::a::b` paths, `super::`
paths, and paths through a child module the file declares (`mod x;` then `x::...`). Test code
(from the first `#[cfg(test)]` on) is left out. Prints each circle (a strongly connected set of
two or more files) and exits 1 when there is one.
usage: scripts/import_cycles.py [REPO]
"""
import re
import sys
from pathlib import Path

repo = Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
src = repo / "src"


def module_path(f: Path):
    rel = f.relative_to(src).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] in ("mod", "lib", "main"):
        parts = parts[:-1]
    return tuple(parts)


files = {module_path(f): f for f in src.rglob("*.rs")}


def resolve(path):
    """The file of the longest known module prefix of a path."""
    for n in range(len(path), -1, -1):
        if tuple(path[:n]) in files:
            return tuple(path[:n])
    return None


def code_of(f: Path) -> str:
    lines = f.read_text(errors="replace").splitlines()
    cut = next((i for i, l in enumerate(lines) if re.match(r"\s*#\[cfg\(test\)\]", l)), len(lines))
    return "\n".join(l.split("//", 1)[0] for l in lines[:cut])


def paths(code: str):
    """Every path starting at crate::, super:: or a plain name, with `{a, b::c}` groups opened."""
    for m in re.finditer(r"(?<![\w:])((?:crate|super|self|[a-z_][a-z0-9_]*)(?:::(?:\w+|\{[^;]*?\}))+)", code):
        yield from expand(m.group(1))


def expand(p: str):
    m = re.match(r"^(.*?)::\{(.*)\}$", p, re.S)
    if not m:
        yield p.split("::")
        return
    head, body = m.group(1), m.group(2)
    depth, item = 0, ""
    for c in body + ",":
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        if c == "," and depth == 0:
            item = item.strip()
            if item:
                yield from expand(f"{head}::{item}" if item != "self" else head)
            item = ""
        else:
            item += c


edges = {m: set() for m in files}
for me, f in files.items():
    code = code_of(f)
    children = set(re.findall(r"^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", code, re.M))
    for p in paths(code):
        if p[0] == "crate":
            target = resolve(p[1:])
        elif p[0] in ("super", "self"):
            # `self` is the file's own module, `super` its parent, for `mod.rs` and `x.rs` alike.
            base = list(me)
            if p[0] == "self":
                p = p[1:]
            while p and p[0] == "super":
                base = base[:-1]
                p = p[1:]
            target = resolve(tuple(base) + tuple(p))
        elif p[0] in children:
            target = resolve(tuple(me) + tuple(p))
        else:
            continue
        if target is not None and target != me and target != ():
            edges[me].add(target)

# Tarjan's strongly connected components.
index, low, stack, on, sccs, counter = {}, {}, [], set(), [], [0]
sys.setrecursionlimit(10000)


def visit(v):
    index[v] = low[v] = counter[0]
    counter[0] += 1
    stack.append(v)
    on.add(v)
    for w in edges[v]:
        if w not in index:
            visit(w)
            low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop()
            on.discard(w)
            comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            sccs.append(comp)


for v in sorted(files):
    if v not in index:
        visit(v)
name = lambda m: str(files[m].relative_to(repo))
for comp in sccs:
    print("circle: " + ", ".join(sorted(name(m) for m in comp)))
    for a in sorted(comp):
        for b in sorted(edges[a]):
            if b in comp:
                print(f"  {name(a)} -> {name(b)}")
print(f"import_cycles: {len(sccs)} circle(s) among {len(files)} files")
sys.exit(1 if sccs else 0)
