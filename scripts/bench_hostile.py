#!/usr/bin/env python3
"""The cost a pack controls (docs/performance.md, "Cost a pack controls"). Not a test: it prints
figures, in one table, and says whether the targets are met.

Writes one hostile pack at 1x, 2x and 4x the notes (under --work, never in the repository), all
within the page's size limits (65,536 bytes a file, 524,288 a pack, 100 files):

  tests/flood/   1,700 prompt_contains strings (about 56 KB of case.toml), each found once in the
                 20 notes, whose bytes grow 1x, 2x, 4x; per_note = true, and the session with a
                 62 KB turn declares every note, so each of the 20 calls sends that turn (strings
                 x prompts x prompt size: the cost that grows fastest with a pack's size).
  tests/cites/   one reply whose evidence cites the same 62 KB turn 1,500 times.

then runs `check` and `test` on each (--rounds times, medians) and prints the pack's bytes, wall
and CPU time, peak RSS, and the growth from 1x. Targets: test's time and memory grow no faster
than the pack's bytes; the largest test takes under 100x its check.

Then the placeholder pack (docs/performance.md, "The placeholder pack"): a prompt that repeats
`{{turns}}` 6,000 times, `input_budget_bytes = 9000000000000000000`, six 60 KB transcripts of
40 turns each, two notes every session declares (per_note = true: two calls), about 456 KB.
Rendered whole, each call's prompt would be 6,000 copies of 360 KB of turns (2 GB); under the
cap of 10,000,000 bytes `test` keeps the newest turns that fit. Target: `test` under 2 s and
100 MB.

usage: scripts/bench_hostile.py [--bin target/release/hippo-packs] [--before BIN]
                                [--rounds 5] [--work /tmp/hippo-bench/hostile]
                                [--placeholder-only]
"""
import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIME = "/usr/bin/time"
FILE_LIMIT, PACK_LIMIT, FILES_LIMIT = 65_536, 524_288, 100
NEEDLES, CITATIONS, SESSIONS, NOTES, NOTE_BYTES = 1_700, 1_500, 16, 20, 3_000
# The placeholder pack: copies of {{turns}}, transcripts, turns per transcript, bytes a turn.
HOLES, TRANSCRIPTS, TURNS, TURN_BYTES = 6_000, 6, 40, 1_450
CLOSING = ("Respond with only a JSON array of objects `{note, kind, old, new, evidence: [{session, "
           "ordinal}], reason}` as your final message; an empty array means no proposals.")
WORDS = ("cache store window budget parser option summary format query ledger river stone "
         "lantern meadow copper signal harbor orchard basalt quill").split()


def filler(n, seed):
    """About n bytes of plain words (no URL, no command, nothing a redaction rule takes)."""
    out, i = [], seed
    size = 0
    while size < n:
        w = WORDS[(i * 7 + size) % len(WORDS)]
        out.append(w)
        size += len(w) + 1
        i += 1
    return " ".join(out)[:n]


def needle(i):
    return f"needle {i:04d} of the flood pack"


def record(session, minute, role, text):
    base = {"type": role, "sessionId": session, "timestamp": f"2026-11-01T10:{minute:02d}:00.000Z"}
    if role == "user":
        base["message"] = {"role": "user", "content": text}
    else:
        base["message"] = {"role": "assistant", "content": [{"type": "text", "text": text}]}
    return json.dumps(base)


def big_transcript():
    """Session s01: a question, then a 62 KB answer that holds `curl ` (shell-shaped text the
    cites case's proposal repeats)."""
    text = "Fetch the ledger with curl then file it. " + filler(62_000, 3)
    return "\n".join(['{"synthetic": true}', record("s01", 0, "user", "What did we settle?"),
                      record("s01", 1, "assistant", text)]) + "\n"


def pack_files(scale):
    """{path: text} of the pack at `scale` times the notes."""
    src = ROOT / "tests" / "packs" / "decision-log"
    files = {
        "pack.toml": 'protocol = "HIPPO_V1"\nname = "flood"\nversion = "1.0.0"\n'
                     'description = "A pack built to cost as much as the limits allow."\n'
                     'authors = ["Bench Mark"]\nlicense = "MIT"\n',
        "README.md": "# flood\n\nA generated pack for scripts/bench_hostile.py.\n",
        "prompts/flood.md": (src / "prompts/decision-log.md").read_text(),
        "personas/flood-reviewer.md": (src / "personas/decision-log-reviewer.md").read_text(),
        "passes/flood.toml": 'protocol = "HIPPO_V1"\nprompt = "prompts/flood.md"\n'
                             'reads = ["sessions", "notes", "turns"]\n'
                             'reviewer = "personas/flood-reviewer.md"\n'
                             'input_budget_bytes = 4000000\nper_note = true\n',
    }
    files.update(flood_case(scale))
    files.update(cites_case())
    return files


def flood_case(scale):
    files = {}
    per_note = -(-NEEDLES // NOTES)
    for n in range(NOTES):
        lines = [f"# Note {n}", ""]
        lines += [f"- {needle(i)}" for i in range(n * per_note, min(NEEDLES, (n + 1) * per_note))]
        body = "\n".join(lines) + "\n"
        files[f"tests/flood/notes/n{n:03d}.md"] = body + filler(NOTE_BYTES * scale - len(body), n) + "\n"
    sessions = []
    for s in range(1, SESSIONS + 1):
        # s01, with the 62 KB turn, declares every note, so every call sends that turn.
        declared = [f"notes/n{n:03d}.md" for n in range(NOTES) if s == 1 or n % (SESSIONS - 1) == s - 2]
        sessions.append(f'[[session]]\nid = "s{s:02d}"\nnotes = {json.dumps(declared)}\n'
                        f'handoff = "Session {s}."\n')
    reply = [{"note": "notes/n000.md", "kind": "append", "old": "", "new": "- the flood settled",
              "evidence": [{"session": "s01", "ordinal": 2}], "reason": "s01 settled it."}]
    case = ('protocol = "HIPPO_V1"\npass = "flood"\n\n' + "\n".join(sessions) +
            "\n[model]\nreply = '''" + json.dumps(reply) + "'''\nverdict = \"confirm\"\n\n"
            f"[expect]\ncalls = {NOTES}\nproposals = 1\napplied = 1\nprompt_contains = [\n" +
            "".join(f'"{needle(i)}",\n' for i in range(NEEDLES)) + "]\n")
    files["tests/flood/case.toml"] = case
    files["tests/flood/transcripts/big.jsonl"] = big_transcript()
    small = ['{"synthetic": true}']
    for s in range(2, SESSIONS + 1):
        small.append(record(f"s{s:02d}", s, "user", f"Session {s}: {filler(200, s)}"))
        small.append(record(f"s{s:02d}", s + 1, "assistant", f"Settled {s}: {filler(200, s + 1)}"))
    files["tests/flood/transcripts/small.jsonl"] = "\n".join(small) + "\n"
    return files


def cites_case():
    evidence = [{"session": "s01", "ordinal": 2}] * CITATIONS
    reply = [{"note": "notes/a.md", "kind": "append", "old": "", "new": "- fetch it with curl then file it",
              "evidence": evidence, "reason": "s01 said so."}]
    case = ('protocol = "HIPPO_V1"\npass = "flood"\n\n[[session]]\nid = "s01"\nnotes = ["notes/a.md"]\n'
            f'handoff = "One long answer."\n\n[model]\nreply = \'\'\'{json.dumps(reply)}\'\'\'\n'
            'verdict = "confirm"\n\n[expect]\ncalls = 1\nproposals = 1\napplied = 1\n')
    return {"tests/cites/case.toml": case, "tests/cites/notes/a.md": "# A\n\n- start\n",
            "tests/cites/transcripts/big.jsonl": big_transcript()}


def placeholder_files():
    """{path: text} of the placeholder pack."""
    src = ROOT / "tests" / "packs" / "decision-log"
    notes = ["notes/a.md", "notes/b.md"]
    files = {
        "pack.toml": 'protocol = "HIPPO_V1"\nname = "placeholder"\nversion = "1.0.0"\n'
                     'description = "A prompt that repeats its turns six thousand times."\n'
                     'authors = ["Bench Mark"]\nlicense = "MIT"\n',
        "README.md": "# placeholder\n\nA generated pack for scripts/bench_hostile.py.\n",
        "prompts/turns.md": "{{turns}}\n" * HOLES + "\n" + CLOSING + "\n",
        "personas/turns-reviewer.md": (src / "personas/decision-log-reviewer.md").read_text(),
        "passes/turns.toml": 'protocol = "HIPPO_V1"\nprompt = "prompts/turns.md"\n'
                             'reads = ["sessions", "notes", "turns"]\n'
                             'reviewer = "personas/turns-reviewer.md"\n'
                             'input_budget_bytes = 9000000000000000000\nper_note = true\n',
        "tests/turns/notes/a.md": "# A\n\n- the first note\n",
        "tests/turns/notes/b.md": "# B\n\n- the second note\n",
    }
    sessions = []
    for t in range(TRANSCRIPTS):
        sid = f"s{t + 1:02d}"
        lines = ['{"synthetic": true}']
        for n in range(TURNS):
            role = "user" if n % 2 == 0 else "assistant"
            lines.append(record(sid, n, role, f"{sid} turn {n}: " + filler(TURN_BYTES, t * TURNS + n)))
        files[f"tests/turns/transcripts/{sid}.jsonl"] = "\n".join(lines) + "\n"
        sessions.append(f'[[session]]\nid = "{sid}"\nnotes = {json.dumps(notes)}\n'
                        f'handoff = "Session {t + 1}."\n')
    files["tests/turns/case.toml"] = (
        'protocol = "HIPPO_V1"\npass = "turns"\n\n' + "\n".join(sessions) +
        "\n[model]\nreply = '[]'\nverdict = \"confirm\"\n\n"
        f'[expect]\ncalls = 2\nproposals = 0\nprompt_contains = ["s06 turn {TURNS - 1}: "]\n'
        'prompt_excludes = ["s01 turn 0: "]\n')
    return files


def write_files(files, out):
    sizes = {p: len(t.encode()) for p, t in files.items()}
    over = [p for p, n in sizes.items() if n > FILE_LIMIT]
    total = sum(sizes.values())
    if over or total > PACK_LIMIT or len(files) > FILES_LIMIT:
        raise SystemExit(f"generator error: {out.name} is past the page's limits "
                         f"({total} bytes, {len(files)} files, over one file's limit: {over})")
    shutil.rmtree(out, ignore_errors=True)
    for p, t in files.items():
        f = out / p
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(t)
    return total


def write_pack(work, scale):
    files = pack_files(scale)
    out = work / f"flood-{scale}x"
    total = write_files(files, out)
    return out, total, sum(len(t.encode()) for p, t in files.items() if "/notes/" in p)


def measure(cmd, cwd, timeout):
    with tempfile.NamedTemporaryFile() as rss_file:
        t0 = time.perf_counter()
        p = subprocess.Popen([TIME, "-o", rss_file.name, "-f", "%M", *cmd], cwd=cwd,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            p.wait(timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
            return None
        wall = time.perf_counter() - t0
        text = Path(rss_file.name).read_text().split()
    rss = int(text[-1]) / 1024 if text and text[-1].isdigit() else 0.0
    return wall, rss, p.returncode


def cpu_of(cmd, cwd):
    """User + system seconds of one run (resource usage of the finished child)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def run(a):
    """Measures every scale; returns the rows and prints the table."""
    work = Path(a.work)
    rows = []
    for scale in (1, 2, 4):
        pack, total, notes = write_pack(work, scale)
        row = {"scale": scale, "bytes": total, "notes": notes}
        for cmd in ("check", "test"):
            argv = [a.bin, cmd, str(pack)]
            walls, rsss, cpus, code = [], [], [], None
            for _ in range(a.rounds):
                m = measure(argv, work, 600)
                walls.append(m[0])
                rsss.append(m[1])
                code = m[2]
                cpus.append(cpu_of(argv, work))
            row[cmd] = (statistics.median(walls), statistics.median(cpus), statistics.median(rsss), code)
        if a.before:
            m = measure([a.before, "test", str(pack)], work, a.before_timeout)
            row["before"] = m[0] if m else None
        rows.append(row)
    print_table(rows, a)
    return rows


def print_table(rows, a):
    print(f"\n## cost a pack controls: {NEEDLES:,} prompt_contains strings, one reply citing one "
          f"62 KB turn {CITATIONS:,} times, notes at 1x/2x/4x ({a.rounds} rounds, medians)\n")
    head = ["notes", "pack bytes", "notes bytes", "check s", "test s", "test CPU s", "test/check",
            "test RSS MiB", "check RSS MiB", "exit check/test"]
    if a.before:
        head.append("--before test s")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in rows:
        c, t = r["check"], r["test"]
        cells = [f"{r['scale']}x", f"{r['bytes']:,}", f"{r['notes']:,}", f"{c[0]:.3f}", f"{t[0]:.3f}",
                 f"{t[1]:.3f}", f"{t[0] / c[0]:.1f}x", f"{t[2]:.1f}", f"{c[2]:.1f}", f"{c[3]}/{t[3]}"]
        if a.before:
            cells.append("timed out" if r["before"] is None else f"{r['before']:.3f}")
        print("| " + " | ".join(cells) + " |")
    base = rows[0]
    print("\ngrowth from 1x:")
    ok_time = ok_mem = True
    for r in rows[1:]:
        gb = r["bytes"] / base["bytes"]
        gt = r["test"][1] / base["test"][1] if base["test"][1] else float("nan")
        gw = r["test"][0] / base["test"][0]
        gm = r["test"][2] / base["test"][2]
        ok_time &= gt <= gb
        ok_mem &= gm <= gb
        print(f"  {r['scale']}x: pack bytes {gb:.2f}x, test CPU {gt:.2f}x (wall {gw:.2f}x), test peak RSS {gm:.2f}x")
    big = rows[-1]
    ratio = big["test"][0] / big["check"][0]
    print(f"\ntest time and memory grow no faster than the pack's bytes: "
          f"{'MET' if ok_time and ok_mem else 'NOT MET'} (time {'ok' if ok_time else 'faster'}, "
          f"memory {'ok' if ok_mem else 'faster'})")
    print(f"largest test under 100x its check: {'MET' if ratio < 100 else 'NOT MET'} ({ratio:.1f}x)")


def run_placeholder(a):
    """The placeholder pack: check and test (--rounds times, medians), and --before's test once.
    Returns whether test met its target (under 2 s and 100 MB, exit 0)."""
    work = Path(a.work)
    pack = work / "placeholder"
    total = write_files(placeholder_files(), pack)
    row = {}
    for cmd in ("check", "test"):
        argv = [a.bin, cmd, str(pack)]
        walls, rsss, cpus, code = [], [], [], None
        for _ in range(a.rounds):
            wall, rss, code = measure(argv, work, 600)
            walls.append(wall)
            rsss.append(rss)
            cpus.append(cpu_of(argv, work))
        row[cmd] = (statistics.median(walls), statistics.median(cpus), statistics.median(rsss), code)
    print(f"\n## the placeholder pack: {{{{turns}}}} {HOLES:,} times, input_budget_bytes 9e18, "
          f"{TRANSCRIPTS} transcripts of {TURNS} turns, two notes ({total:,} bytes; {a.rounds} rounds, medians)\n")
    print("| build | command | exit | wall s | CPU s | peak RSS MiB |")
    print("|---|---|---|---|---|---|")
    for cmd in ("check", "test"):
        wall, cpu, rss, code = row[cmd]
        print(f"| --bin | {cmd} | {code} | {wall:.3f} | {cpu:.3f} | {rss:.1f} |")
    if a.before:
        m = measure([a.before, "test", str(pack)], work, a.before_timeout)
        if m is None:
            print(f"| --before | test | timed out after {a.before_timeout:.0f} s | | | |")
        else:
            print(f"| --before | test | {m[2]} | {m[0]:.3f} | | {m[1]:.1f} |")
    wall, _, rss, code = row["test"]
    met = code == 0 and wall < 2.0 and rss < 100.0
    print(f"\ntest under 2 s and 100 MB: {'MET' if met else 'NOT MET'} "
          f"({wall:.3f} s, {rss:.1f} MiB, exit {code})")
    return met


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default=str(ROOT / "target" / "release" / "hippo-packs"))
    ap.add_argument("--before", help="another build: its test time on the same packs")
    ap.add_argument("--before-timeout", type=float, default=300)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--work", default="/tmp/hippo-bench/hostile")
    ap.add_argument("--placeholder-only", action="store_true", help="only the placeholder pack")
    a = ap.parse_args()
    if not Path(TIME).exists():
        print(f"SKIPPED hostile benchmark: {TIME} is missing (apt-get install time)")
        return 2
    a.bin = str(Path(a.bin).resolve())
    Path(a.work).mkdir(parents=True, exist_ok=True)
    if not a.placeholder_only:
        run(a)
    return 0 if run_placeholder(a) else 1


if __name__ == "__main__":
    sys.exit(main())
