#!/usr/bin/env python3
"""The renderers' cost against what they print (scripts/bench.py runs it; it can run alone).

One pack: the page's good pack with its prompt starting with one line of 64 KB (the one-file
limit) made of `x` and U+200B, one `invisible-character` finding every 4 bytes, and the same
pack with a line of half that. For each format (text, concise, full, json) it runs `check` over
each pack and prints the median wall time, the peak RSS and the bytes printed, and whether the
time grows no faster than the output (the 64 KB line's time over the half line's, against its
bytes over the half line's: a renderer that costs what it prints stays near 1).

usage: scripts/bench_renderers.py [--bin target/release/hippo-packs] [--rounds 3] [--work DIR]
                                  [--before BIN]
"""
import argparse
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 65536
FORMATS = ("text", "concise", "full", "json")


def make_pack(work, name, share):
    """The page's good pack whose prompt starts with a line of findings filling `share` of the
    one-file limit."""
    pack = Path(work) / name
    if pack.exists():
        shutil.rmtree(pack)
    shutil.copytree(ROOT / "tests" / "packs" / "decision-log", pack)
    prompt = pack / "prompts" / "decision-log.md"
    text = prompt.read_text()
    room = LIMIT - len(text.encode()) - 1
    n = int(room * share) // 4
    prompt.write_text("x\u200b" * n + "\n" + text)
    return pack, n


def run(binary, pack, fmt, timeout):
    """Wall seconds, peak RSS (KiB) and bytes printed of one run; None for a time-out."""
    with tempfile.NamedTemporaryFile() as rss, tempfile.TemporaryFile() as out:
        t0 = time.perf_counter()
        try:
            subprocess.run(["/usr/bin/time", "-o", rss.name, "-f", "%M", binary, "check",
                            str(pack), "--format", fmt], stdout=out, stderr=subprocess.DEVNULL,
                           timeout=timeout)
        except subprocess.TimeoutExpired:
            return None
        wall = time.perf_counter() - t0
        size = out.seek(0, 2)
        kib = Path(rss.name).read_text().split()
    return wall, int(kib[-1]) if kib and kib[-1].isdigit() else 0, size


def table(binary, work, rounds, timeout):
    half, n_half = make_pack(work, "half-line", 0.5)
    full, n_full = make_pack(work, "full-line", 1.0)
    print(f"\n## renderers: one line of findings ({binary})\n")
    print(f"{'format':<8} {'findings':>8} {'wall s':>8} {'peak RSS MiB':>13} {'bytes out':>11}"
          f" {'time ratio / bytes ratio':>25}")
    for fmt in FORMATS:
        got = {}
        for pack, n in ((half, n_half), (full, n_full)):
            runs = [run(binary, pack, fmt, timeout) for _ in range(rounds)]
            if any(r is None for r in runs):
                print(f"{fmt:<8} {n:>8}   over {timeout} s (stopped)")
                got[n] = None
                continue
            wall = statistics.median(r[0] for r in runs)
            got[n] = (wall, max(r[1] for r in runs), runs[0][2])
            ratio = ""
            if n == n_full and got.get(n_half):
                (w0, _, b0), (w1, _, b1) = got[n_half], got[n]
                ratio = f"{(w1 / w0) / (b1 / b0):25.2f}" if w0 > 0 and b0 > 0 else ""
            wall_s, rss, size = got[n]
            print(f"{fmt:<8} {n:>8} {wall_s:8.2f} {rss / 1024:13.1f} {size:>11} {ratio}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=str(ROOT / "target" / "release" / "hippo-packs"))
    ap.add_argument("--before", help="another build, measured the same way")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("--work", default="/tmp/hippo-bench/renderers")
    a = ap.parse_args()
    if not Path("/usr/bin/time").exists():
        print("SKIPPED renderers: /usr/bin/time is missing (apt-get install time)")
        return 2
    Path(a.work).mkdir(parents=True, exist_ok=True)
    for binary in [a.bin] + ([a.before] if a.before else []):
        table(str(Path(binary).resolve()), a.work, a.rounds, a.timeout)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
