#!/usr/bin/env python3
"""The language server's benchmark (docs/performance.md, "The language server"). Not a test: it
prints figures.

A pack at the page's limits (100 files, 524,288 bytes, its prompt 65,535 bytes: one typed
character short of the 65,536-byte limit), under --work. `hippo-packs server` opens the prompt,
then takes 200 single-character edits, typed and deleted in turn at the middle of the prompt,
each sent once the diagnostics of the one before were published: the time from sending each
edit to its publish (median, p95), the server's CPU per edit (/proc: user + system over the
edits), beside `check` of the same pack (median wall and CPU of --rounds runs). Then the same
200 edits sent at once (how many checks the queue made of them), and callgrind's instructions
per re-check (a session of --cg-edits edits less a session of none, over the edits) beside one
`check`'s.

usage: scripts/bench_server.py [--bin target/release/hippo-packs] [--work /tmp/hippo-bench]
                               [--edits 200] [--rounds 21] [--cg-edits 20]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROMPT = "prompts/decision-log.md"
PROMPT_BYTES = 65_535
PACK_BYTES = 524_288
FILES = 100


def build_pack(work: Path) -> Path:
    """The page's good pack grown to its limits."""
    pack = work / "server-pack"
    shutil.rmtree(pack, ignore_errors=True)
    shutil.copytree(ROOT / "tests" / "packs" / "decision-log", pack)
    prompt = pack / PROMPT
    text = prompt.read_text()
    head, rules = text.split("## Rules", 1)
    filler = "".join(f"Background line {i}: the decisions of earlier sessions, kept as written.\n"
                     for i in range(2000))
    body = head + "## Background\n\n" + filler + "\n## Rules" + rules
    extra = len(body.encode()) - PROMPT_BYTES
    assert extra > 0
    filler = filler[: len(filler) - extra]
    body = head + "## Background\n\n" + filler + "\n## Rules" + rules
    assert len(body.encode()) == PROMPT_BYTES
    prompt.write_text(body)
    notes = pack / "tests" / "cache-store" / "notes"
    files = [p for p in pack.rglob("*") if p.is_file()]
    have = sum(p.stat().st_size for p in files)
    add = FILES - len(files)
    each = (PACK_BYTES - have) // add
    for i in range(add):
        line = f"- Session note {i}: nothing was decided.\n"
        n = each if i < add - 1 else PACK_BYTES - have - each * (add - 1)
        (notes / f"Archive {i:02}.md").write_text(("# Archive\n\n" + line * (n // len(line) + 1))[:n])
    assert sum(p.stat().st_size for p in pack.rglob("*") if p.is_file()) == PACK_BYTES
    assert sum(1 for p in pack.rglob("*") if p.is_file()) == FILES
    return pack


class Client:
    """A client of the protocol over the server's standard input and output."""

    def __init__(self, cmd):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL)
        self.next_id = 0

    def send(self, method, params, request=False):
        msg = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self.next_id += 1
            msg["id"] = self.next_id
        body = json.dumps(msg).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()
        return msg.get("id")

    def read(self):
        length = 0
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise EOFError("the server hung up")
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
            if line == b"\r\n":
                break
        return json.loads(self.p.stdout.read(length))

    def until(self, want):
        while True:
            m = self.read()
            if want(m):
                return m

    def start(self):
        i = self.send("initialize", {"capabilities": {}}, request=True)
        self.until(lambda m: m.get("id") == i)
        self.send("initialized", {})

    def stop(self):
        i = self.send("shutdown", None, request=True)
        self.until(lambda m: m.get("id") == i)
        self.send("exit", None)
        self.p.stdin.close()
        return self.p.wait()


def published(uri, version):
    return lambda m: (m.get("method") == "textDocument/publishDiagnostics"
                      and m["params"]["uri"] == uri and m["params"].get("version") == version)


def edit(i, line, col):
    """The i-th edit: type an `x` at (line, col), then delete it."""
    if i % 2 == 1:
        r = {"start": {"line": line, "character": col}, "end": {"line": line, "character": col}}
        return {"range": r, "text": "x"}
    r = {"start": {"line": line, "character": col}, "end": {"line": line, "character": col + 1}}
    return {"range": r, "text": ""}


def cpu_of(pid):
    """User + system seconds of a running process."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def session(cmd, pack, edits, wait_each=True):
    """Opens the prompt, makes `edits` edits; returns (latencies, CPU seconds of the edits,
    publishes of the prompt after the last edit was sent, exit code)."""
    prompt = pack / PROMPT
    uri = prompt.resolve().as_uri()
    text = prompt.read_text()
    line = text[: len(text) // 2].count("\n")
    c = Client(cmd)
    c.start()
    c.send("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "markdown",
                                                     "version": 0, "text": text}})
    c.until(published(uri, 0))
    lat, cpu0 = [], cpu_of(c.p.pid)
    if wait_each:
        for i in range(1, edits + 1):
            t0 = time.perf_counter()
            c.send("textDocument/didChange", {"textDocument": {"uri": uri, "version": i},
                                              "contentChanges": [edit(i, line, 10)]})
            c.until(published(uri, i))
            lat.append(time.perf_counter() - t0)
        checks = edits
    else:
        for i in range(1, edits + 1):
            c.send("textDocument/didChange", {"textDocument": {"uri": uri, "version": i},
                                              "contentChanges": [edit(i, line, 10)]})
        checks = 0
        while True:
            m = c.until(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                        and m["params"]["uri"] == uri)
            checks += 1
            if m["params"].get("version") == edits:
                break
    cpu = cpu_of(c.p.pid) - cpu0
    return lat, cpu, checks, c.stop()


def run_check(binary, pack, rounds):
    walls, cpus = [], []
    for _ in range(rounds):
        t0 = time.perf_counter()
        p = subprocess.Popen([binary, "check", str(pack)], stdout=subprocess.DEVNULL)
        _, _, usage = os.wait4(p.pid, 0)
        walls.append(time.perf_counter() - t0)
        cpus.append(usage.ru_utime + usage.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def callgrind(cmd, run):
    """Instructions (Ir) of `run(cmd under callgrind)`."""
    with tempfile.TemporaryDirectory() as t:
        out = Path(t) / "cg.out"
        run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *cmd])
        for line in out.read_text().splitlines():
            if line.startswith("summary:") or line.startswith("totals:"):
                return int(line.split()[1])
    return None


def p95(xs):
    return statistics.quantiles(xs, n=20)[-1] if len(xs) >= 20 else max(xs)


def run(a):
    work = Path(a.work)
    work.mkdir(parents=True, exist_ok=True)
    pack = build_pack(work)
    server = [a.bin, "server"]
    lat, cpu, _, code = session(server, pack, a.edits)
    assert code == 0, code
    burst_lat, burst_cpu, burst_checks, _ = session(server, pack, a.edits, wait_each=False)
    check_wall, check_cpu = run_check(a.bin, pack, a.rounds)
    ms = lambda s: f"{s * 1000:.1f} ms"
    print(f"\n## the language server: {a.edits} single-character edits to a {PROMPT_BYTES:,}-byte "
          f"prompt of a pack of {FILES} files, {PACK_BYTES:,} bytes")
    print(f"change to diagnostics: median {ms(statistics.median(lat))}, p95 {ms(p95(lat))}, "
          f"max {ms(max(lat))}")
    print(f"server CPU per edit: {ms(cpu / a.edits)}")
    print(f"check of the same pack: wall {ms(check_wall)}, CPU {ms(check_cpu)} (median of {a.rounds})")
    print(f"{a.edits} edits sent at once: {burst_checks} checks, server CPU {ms(burst_cpu)}")
    if shutil.which("valgrind"):
        none = callgrind(server, lambda cmd: session(cmd, pack, 0))
        some = callgrind(server, lambda cmd: session(cmd, pack, a.cg_edits))
        one = callgrind([a.bin, "check", str(pack)],
                        lambda cmd: subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        per = (some - none) / a.cg_edits
        print(f"callgrind: {per:,.0f} instructions per re-check ({a.cg_edits} edits less none), "
              f"one check {one:,} ({per / one:.2f}x)")
        print(f"targets: re-check <= one check: {'met' if per <= one else 'NOT met'}; "
              f"p95 < 50 ms: {'met' if p95(lat) < 0.050 else 'NOT met'}")
    else:
        print("SKIPPED callgrind: valgrind is not installed (apt-get install valgrind)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=str(ROOT / "target" / "release" / "hippo-packs"))
    ap.add_argument("--work", default="/tmp/hippo-bench")
    ap.add_argument("--edits", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=21)
    ap.add_argument("--cg-edits", type=int, default=20)
    a = ap.parse_args()
    a.bin = str(Path(a.bin).resolve())
    run(a)
    return 0


if __name__ == "__main__":
    sys.exit(main())
