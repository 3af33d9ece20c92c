#!/usr/bin/env python3
"""Two hippo-packs binaries on one registry, in paired rounds: a change must not be slower.

Each round runs `cat` of every file, then `check` and `test` with binary A and with binary B, in
turn, so machine noise hits all of them alike. Prints, per command, each binary's time as a ratio
of `cat`'s (min / median / max over the rounds) and B's median over A's. Not a test: it prints
figures.

usage: scripts/bench_pair.py A B [--packs 500] [--rounds 11] [--work /tmp/hippo-pair]
"""
import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GEN = ROOT / "scripts" / "gen_registry.py"


def timed(cmd, cwd):
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--packs", type=int, default=500)
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--work", default="/tmp/hippo-pair")
    o = ap.parse_args()
    work = Path(o.work) / f"r{o.packs}"
    if not work.exists():
        work.mkdir(parents=True)
        subprocess.run([sys.executable, str(GEN), str(work), "--packs", str(o.packs)], check=True,
                       stdout=subprocess.DEVNULL)
    packs = sorted(str(p.relative_to(work)) for p in (work / "packs").iterdir() if p.is_dir())
    files = sorted(str(p.relative_to(work)) for p in (work / "packs").rglob("*") if p.is_file())
    bins = {"A": str(Path(o.a).resolve()), "B": str(Path(o.b).resolve())}
    times = {(b, c): [] for b in bins for c in ("check", "test")}
    cats = []
    for _ in range(o.rounds):
        cats.append(timed(["cat", *files], work))
        for b, path in bins.items():
            for c in ("check", "test"):
                times[(b, c)].append(timed([path, c, *packs], work))
    print(f"{o.packs} packs, {len(files)} files, {o.rounds} paired rounds; A={o.a} B={o.b}")
    for c in ("check", "test"):
        for b in bins:
            r = [t / k for t, k in zip(times[(b, c)], cats)]
            print(f"{c:<6} {b} / cat   min {min(r):6.2f}x  median {statistics.median(r):6.2f}x  max {max(r):6.2f}x")
        ba = [tb / ta for tb, ta in zip(times[("B", c)], times[("A", c)])]
        print(f"{c:<6} B / A     min {min(ba):6.2f}x  median {statistics.median(ba):6.2f}x  max {max(ba):6.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
