#!/usr/bin/env python3
"""Links into one deep folder (docs/performance.md, "Links discovery searches"). Not a test: it
prints figures.

Writes, under --work (never in the repository), a workspace with one good pack and --links
symbolic links in packs/links/, each to one level of a folder --depth levels deep outside the
workspace (link i to level i mod depth), and runs `hippo-packs ci packs --upload false --test
false --scope all` there with each binary given (--bin, and --before for a comparison), --rounds
times, printing the median wall time, the exit code and the number of `symbolic-link` findings.
A search of a link's target that looks at each folder once costs the folder's depth once; a
search per link costs the folders below each link's level again for every link.

usage: scripts/bench_links.py [--bin target/release/hippo-packs] [--before BIN]
                              [--links 1900] [--depth 1000] [--rounds 3] [--timeout 600]
                              [--work /tmp/hippo-bench/links]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def build(work, links, depth):
    if work.exists():
        subprocess.run(["rm", "-rf", str(work)], check=True)
    ws = work / "ws"
    shutil.copytree(ROOT / "tests/packs/decision-log", ws / "packs/good")
    (ws / "packs/links").mkdir(parents=True)
    levels = [str(work / "outside/deep")]
    for i in range(1, depth):
        levels.append(levels[-1] + "/d")
    for level in levels:  # one at a time: os.makedirs recurses once per level
        os.makedirs(level, exist_ok=True)
    for i in range(links):
        os.symlink(levels[i % depth], str(ws / f"packs/links/l{i}"))
    return ws


def run(binary, ws, timeout):
    cmd = [binary, "ci", "packs", "--upload", "false", "--test", "false", "--scope", "all"]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "INPUT_"))}
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, cwd=ws, env=env, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return timeout, None, None
    links = sum(1 for l in p.stdout.splitlines() if l.startswith("error packs/links/"))
    return time.monotonic() - start, p.returncode, links


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=str(ROOT / "target/release/hippo-packs"))
    ap.add_argument("--before")
    ap.add_argument("--links", type=int, default=1900)
    ap.add_argument("--depth", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--work", default="/tmp/hippo-bench/links")
    a = ap.parse_args()
    ws = build(Path(a.work), a.links, a.depth)
    print(f"{a.links} links into one folder {a.depth} levels deep (link i to level i mod {a.depth})")
    bins = [("before", a.before)] if a.before else []
    bins.append(("after", a.bin))
    for name, binary in bins:
        runs = [run(binary, ws, a.timeout) for _ in range(a.rounds)]
        times = [t for t, _, _ in runs]
        _, code, found = runs[-1]
        shown = "timed out" if code is None else f"exit {code}, {found} link findings"
        print(f"{name:7} {binary}: median {statistics.median(times):.2f} s over {a.rounds} "
              f"({', '.join(f'{t:.2f}' for t in times)}); {shown}")
    subprocess.run(["rm", "-rf", a.work], check=True)  # deeper than shutil recurses


if __name__ == "__main__":
    sys.exit(main())
