#!/usr/bin/env python3
"""What a pull request's review costs `hippo-packs ci` (docs/performance.md, "The review").

For each registry size (scripts/gen_registry.py, under --work), a real git repository: the
registry committed on `main`, a pull request that changes one prompt line in each of --touched
packs on `feature`, and the test merge GitHub makes, cloned at depth 2 as `actions/checkout`
clones a pull request. Then `hippo-packs ci` over it three ways, each under /usr/bin/time (wall,
CPU, peak RSS) in paired rounds:

  push      a push of the merge commit: no review (every pack checked and tested, scope all)
  no-base   the pull request on a depth-1 clone of the same merge commit: everything a pull
            request's run does (scope `changed`: the touched packs tested and gated) but the
            review, which finds no base there (the run says why in a notice)
  review    the pull request (GitHub's pull_request event, the touched files listed by a stand-in
            for GitHub's API on 127.0.0.1) on the depth-2 clone: the base found in the clone's
            objects, the touched packs written from it, checked and tested, the findings
            labelled, the prompts diffed
  no-diff   the review with --prompt-diff false

`review` minus `no-base` is the review's own cost. Once each, callgrind's instruction counts of
`push`, `no-base` and `review` (--callgrind-size packs only: valgrind runs the binary some 50x
slower). Prints one table with the machine named.

usage: scripts/bench_review.py [--sizes 500,5000] [--touched 5] [--rounds 3]
                               [--bin target/release/hippo-packs] [--work /tmp/hippo-bench]
                               [--callgrind-size 500] [--no-build]
"""
import argparse
import http.server
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench  # noqa: E402  (generate, measure, machine)

ROOT = Path(__file__).resolve().parent.parent
GIT_ENV = {"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null",
           "GIT_AUTHOR_DATE": "2026-01-02T03:04:05Z", "GIT_COMMITTER_DATE": "2026-01-02T03:04:05Z"}


def git(cwd, *args):
    env = {**os.environ, **GIT_ENV}
    cmd = ["git", "-c", "user.name=b", "-c", "user.email=b@example.com", "-c", "init.defaultBranch=main",
           "-c", "protocol.file.allow=always", *args]
    return subprocess.run(cmd, cwd=cwd, env=env, check=True, capture_output=True, text=True).stdout.strip()


def pull_request(work, n, touched):
    """The clone of the merge commit, its commits, and the touched files."""
    reg, packs, nfiles = bench.generate(work, n)
    top = work / f"review{n}-{touched}"
    clone = top / "ws"
    meta = top / "meta.json"
    if meta.exists() and clone.is_dir() and (top / "ws1").is_dir():
        return clone, json.loads(meta.read_text()), nfiles
    shutil.rmtree(top, ignore_errors=True)
    origin = top / "origin"
    shutil.copytree(reg / "packs", origin / "packs")
    git(origin, "init", "-q", ".")
    git(origin, "add", "-A")
    git(origin, "commit", "-qm", "base")
    base = git(origin, "rev-parse", "HEAD")
    git(origin, "checkout", "-qb", "feature")
    files = []
    step = max(1, len(packs) // touched)
    for p in packs[::step][:touched]:
        # The prompt of the pass the pack's cases run, so the prompt diff has something to show.
        prompt = sorted((origin / p / "prompts").glob("*-summary.md"))[0]
        prompt.write_text(prompt.read_text() + "\nKeep each entry to one sentence.\n")
        files.append(str(prompt.relative_to(origin)))
    git(origin, "commit", "-qam", "change")
    head = git(origin, "rev-parse", "HEAD")
    git(origin, "checkout", "-q", "main")
    git(origin, "checkout", "-qb", "merge")
    git(origin, "merge", "-q", "--no-ff", "-m", "merge", "feature")
    merge = git(origin, "rev-parse", "HEAD")
    git(top, "clone", "-q", "--depth", "2", "--branch", "merge", f"file://{origin}", "ws")
    git(top, "clone", "-q", "--depth", "1", "--branch", "merge", f"file://{origin}", "ws1")
    info = {"base": base, "head": head, "merge": merge, "files": files}
    meta.write_text(json.dumps(info))
    return clone, info, nfiles


class Files(http.server.BaseHTTPRequestHandler):
    """GitHub's answer to a pull request's files: the touched ones, then an empty page."""
    listed = []

    def log_message(self, *args):
        pass

    def do_GET(self):
        page = re.search(r"[?&]page=(\d+)", self.path)
        if "/pulls/7/files" in self.path and (page is None or page.group(1) == "1"):
            body = [{"filename": f, "status": "modified", "additions": 1, "deletions": 0,
                     "changes": 1} for f in Files.listed]
        elif "/pulls/7/files" in self.path:
            body = []
        else:
            self.send_response(404)
            self.send_header("content-length", "0")
            self.end_headers()
            return
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def event(info):
    """GitHub's pull_request example payload (tests/data/github), moved to this pull request."""
    e = json.loads((ROOT / "tests/data/github/event-pull_request.json").read_text())
    pr = e["pull_request"]
    e["number"] = pr["number"] = 7
    pr["head"]["sha"], pr["base"]["sha"] = info["head"], info["base"]
    pr["merge_commit_sha"] = info["merge"]
    pr["changed_files"] = len(info["files"])
    for r in (e["repository"], pr["base"]["repo"], pr["head"]["repo"]):
        r["full_name"], r["name"] = "octo/packs", "packs"
        r["owner"]["login"] = "octo"
    return e


def runs(a, clone, info, port, t):
    """The command, environment and checkout of each way of running `ci`."""
    base_env = {k: v for k, v in os.environ.items() if not k.startswith(("GITHUB_", "INPUT_", "RUNNER_"))}
    base_env.update(GITHUB_STEP_SUMMARY=f"{t}/summary.md", GITHUB_OUTPUT=f"{t}/output",
                    GITHUB_WORKSPACE=str(clone), GITHUB_REPOSITORY="octo/packs",
                    GITHUB_SHA=info["merge"], GITHUB_API_URL=f"http://127.0.0.1:{port}")
    ev = Path(t) / "event.json"
    ev.write_text(json.dumps(event(info)))
    push = {**base_env, "GITHUB_EVENT_NAME": "push", "GITHUB_REF": "refs/heads/main"}
    pr = {**base_env, "GITHUB_EVENT_NAME": "pull_request", "GITHUB_REF": "refs/pull/7/merge",
          "GITHUB_EVENT_PATH": str(ev), "INPUT_TOKEN": "ghs_benchToken"}
    shallow = clone.parent / "ws1"
    cmd = [a.bin, "ci", "packs", "--upload", "false", "--annotations", "none",
           "--sarif-file", ".hippo-packs/bench.sarif"]
    return {"push": (cmd, push, clone), "no-base": (cmd, {**pr, "GITHUB_WORKSPACE": str(shallow)}, shallow),
            "review": (cmd, pr, clone), "no-diff": (cmd + ["--prompt-diff", "false"], pr, clone)}


def callgrind(cmd, env, cwd):
    """The instructions callgrind counts for one run (every thread)."""
    with tempfile.TemporaryDirectory() as t:
        out = Path(t) / "cg.out"
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *cmd], cwd=cwd, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        text = out.read_text() if out.exists() else ""
        m = re.search(r"^summary:\s+(\d+)", text, re.M) or re.search(r"^totals:\s+(\d+)", text, re.M)
        return int(m.group(1)) if m else -1


def seen(way, summary):
    """Whether a run did what its way says: the review found its base, the run without one did not."""
    if way == "review":
        return "review&#58; base" in summary and "What the model receives" in summary
    if way == "no-base":
        return "no base to review against" in summary and "review&#58; base " not in summary
    return True


def row(a, work, n):
    clone, info, nfiles = pull_request(work, n, a.touched)
    Files.listed = info["files"]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Files)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    out = {"packs": n, "files": nfiles, "seen": True}
    try:
        with tempfile.TemporaryDirectory() as t:
            ways = runs(a, clone, info, server.server_address[1], t)
            got = {w: [] for w in ways}
            for _ in range(a.rounds):
                for w, (cmd, env, cwd) in ways.items():
                    Path(f"{t}/summary.md").write_text("")
                    got[w].append(bench.measure(cmd, cwd, env=env))
                    out["seen"] &= seen(w, Path(f"{t}/summary.md").read_text())
            for w, rs in got.items():
                out[w] = (statistics.median(r.wall for r in rs), statistics.median(r.cpu for r in rs),
                          statistics.median(r.rss for r in rs) / 1024, rs[-1].code)
            if n == a.callgrind_size and shutil.which("valgrind"):
                out["cg"] = {w: callgrind(*ways[w]) for w in ("push", "no-base", "review")}
    finally:
        server.shutdown()
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="500,5000")
    ap.add_argument("--touched", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--bin", default=str(ROOT / "target" / "release" / "hippo-packs"))
    ap.add_argument("--work", default="/tmp/hippo-bench")
    ap.add_argument("--callgrind-size", type=int, default=500)
    ap.add_argument("--no-build", action="store_true")
    a = ap.parse_args()
    if not a.no_build:
        subprocess.run(["cargo", "build", "--release", "--locked", "--quiet"], cwd=ROOT, check=True)
    return table(a)


def table(a):
    """Measures and prints the table (scripts/bench.py calls it too)."""
    a.bin = str(Path(a.bin).resolve())
    work = Path(a.work)
    work.mkdir(parents=True, exist_ok=True)
    rows = [row(a, work, int(s)) for s in a.sizes.split(",") if s]
    print(f"# the review's cost: {a.bin}\nmachine: {bench.machine()}\n")
    print(f"{a.touched} touched packs; medians of {a.rounds} paired rounds; wall s / CPU s / peak RSS MiB / exit\n")
    print("| packs | files | push | pull request, no base | review | review, no prompt diff "
          "| review - no base: wall, CPU, RSS | each run as its way says |")
    print("|---|---|---|---|---|---|---|---|")
    cell = lambda r: f"{r[0]:.2f} / {r[1]:.2f} / {r[2]:.1f} / {r[3]}"
    for r in rows:
        d = tuple(r["review"][i] - r["no-base"][i] for i in range(3))
        print(f"| {r['packs']:,} | {r['files']:,} | {cell(r['push'])} | {cell(r['no-base'])} | {cell(r['review'])} | "
              f"{cell(r['no-diff'])} | {d[0]:+.2f} s, {d[1]:+.2f} s, {d[2]:+.1f} MiB | {'yes' if r['seen'] else 'NO'} |")
    for r in rows:
        if "cg" in r:
            p, b, v = r["cg"]["push"], r["cg"]["no-base"], r["cg"]["review"]
            print(f"\ncallgrind at {r['packs']:,} packs: push {p:,} instructions, pull request without a base "
                  f"{b:,}, review {v:,}: the review's own {v - b:+,} ({100.0 * (v - b) / b:+.1f} %)")
    if len(rows) >= 2:
        small, large = rows[0], rows[-1]
        ratios = {w: large[w][2] / small[w][2] for w in ("no-base", "review")}
        own = [r["review"][2] - r["no-base"][2] for r in (small, large)]
        print(f"\npeak RSS, {large['packs']:,} over {small['packs']:,} packs: the review run {ratios['review']:.2f}x, "
              f"the same pull request without a base {ratios['no-base']:.2f}x; the review's own (review - no base): "
              f"{own[0]:+.1f} MiB and {own[1]:+.1f} MiB")
    return 0 if all(r["seen"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
