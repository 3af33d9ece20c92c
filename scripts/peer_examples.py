#!/usr/bin/env python3
"""The peers' own rule examples, read from mirrors of their repositories at a pinned commit, for
scripts/secrets_diff.py (docs/redaction.md, "Compared with gitleaks and Kingfisher").

- gitleaks: the positive (`tps`) and negative (`fps`) examples of every rule under
  cmd/generate/config/rules/. gitleaks builds many of them at run time
  (`utils.GenerateSampleSecrets("id", "prefix" + secrets.NewSecret(regex))`); a small evaluator
  reads those expressions (string literals, `+`, `[]string{...}`, `append`, `fmt.Sprintf` with
  `%s`, the `utils` pattern helpers) and generates a string from each regex as gitleaks'
  generator does (a bounded repeat takes a length in its range, `*` and `+` at most one more).
  `GenerateSampleSecrets` writes one secret in 26 contexts; here each call gives one case, in
  the next context in turn, so a rule counts its secrets once.
  An expression it cannot read is counted as skipped, never guessed.
- Kingfisher: `examples` and `negative_examples` of every rule under data/rules/ but those it
  never reports alone (`visible: false`: a host name or account id another rule needs).

Each example is one case: (peer, rule id, family, positive?, text). The family comes from the
rule id (FAMILIES below); a rule of no family is "other vendors". Nothing here is a secret: the
examples are the peers' published test strings, generated again on each run.

usage (alone): scripts/peer_examples.py --gitleaks-repo DIR --kingfisher-repo DIR [--dump DIR]
"""
import argparse
import random
import re
import string
import subprocess
import sys
from pathlib import Path

try:
    import re._parser as sre_parse
    import re._constants as sre_c
except ImportError:  # Python before 3.11
    import sre_parse
    import sre_constants as sre_c

GITLEAKS_COMMIT = "b58d3f102cf3a2c84cb7f923d05c25c9b1aed84b"
KINGFISHER_COMMIT = "ee7c0db3ef87575768f817820c24736249ffcdef"

# rule id (lower case) -> the family of docs/redaction.md's table; first match wins.
FAMILIES = [
    (r"private[-_.]?key|privkey|\bpem\b|pkcs|putty|openssh|pgp|ssh[-_.]", "private keys"),
    (r"jwt|jsonwebtoken", "JWT"),
    (r"authorization|bearer|basic[-_.]?auth|http[-_.]?auth|auth[-_.]?(header|user)", "Authorization headers"),
    (r"url[-_.]?cred|basic[-_.]?url|uri[-_.]?cred|credentials?[-_.]in[-_.]url|\bnetrc|"
     r"connection[-_.]?(string|uri|url)|postgres|mongodb|mysql|redis|amqp|rabbitmq", "credentials in URLs"),
    (r"^aws|\.aws\.|amazon|bedrock", "AWS"),
    (r"gcp|google|firebase|\bgoogle", "GCP/Google"),
    (r"azure|microsoft|msteams|\.msft|\bentra", "Azure"),
    (r"github", "GitHub"),
    (r"gitlab", "GitLab"),
    (r"slack", "Slack"),
    (r"stripe", "Stripe"),
    (r"twilio", "Twilio"),
    (r"sendgrid", "SendGrid"),
    (r"npm", "npm"),
    (r"pypi", "PyPI"),
    (r"docker", "Docker Hub"),
    (r"hugging", "Hugging Face"),
    (r"openai", "OpenAI"),
    (r"anthropic", "Anthropic"),
    (r"cohere", "Cohere"),
    (r"mistral", "Mistral"),
    (r"together", "Together"),
    (r"groq", "Groq"),
    (r"replicate", "Replicate"),
    (r"perplexity", "Perplexity"),
    (r"xai|grok", "xAI"),
    (r"openrouter", "OpenRouter"),
    (r"deepseek", "DeepSeek"),
    (r"notion", "Notion"),
    (r"linear", "Linear"),
    (r"discord", "Discord"),
    (r"telegram", "Telegram"),
    (r"(^|\.)(generic|password|secret|credential)", "secret-named assignments"),
]
OTHER = "other vendors"


def family(rule_id):
    rid = rule_id.lower()
    for pat, fam in FAMILIES:
        if re.search(pat, rid):
            return fam
    return OTHER


def git_show(repo, commit, path):
    return subprocess.run(["git", "--git-dir", str(repo), "show", f"{commit}:{path}"],
                          capture_output=True, text=True, check=True).stdout


def git_ls(repo, commit, under):
    out = subprocess.run(["git", "--git-dir", str(repo), "ls-tree", "-r", "--name-only", commit, under],
                         capture_output=True, text=True, check=True).stdout
    return [p for p in out.splitlines() if p]


def git_dir(path):
    """A mirror as `fetch` brings it (a git directory) or a clone with a work tree."""
    p = Path(path)
    return p / ".git" if (p / ".git").exists() else p


# ---- generating a string from a regex (gitleaks' secrets.NewSecret) ----

PRINTABLE = [c for c in string.printable if c not in "\t\n\r\x0b\x0c"]
CATEGORY = {
    sre_c.CATEGORY_DIGIT: string.digits,
    sre_c.CATEGORY_WORD: string.ascii_letters + string.digits + "_",
    sre_c.CATEGORY_SPACE: " ",
    sre_c.CATEGORY_NOT_DIGIT: string.ascii_letters,
    sre_c.CATEGORY_NOT_WORD: " -.",
    sre_c.CATEGORY_NOT_SPACE: string.ascii_letters + string.digits,
}


def go_to_python(rx):
    rx = rx.replace(r"\z", r"\Z")
    for posix, cls in (("[:alnum:]", "a-zA-Z0-9"), ("[:alpha:]", "a-zA-Z"), ("[:digit:]", "0-9"),
                       ("[:xdigit:]", "0-9a-fA-F"), ("[:upper:]", "A-Z"), ("[:lower:]", "a-z"),
                       ("[:space:]", r"\s"), ("[:punct:]", r"!-/:-@\[-`{-~")):
        rx = rx.replace(posix, cls)
    return rx


def set_chars(items):
    chars, negate = set(), False
    for op, av in items:
        if op == sre_c.NEGATE:
            negate = True
        elif op == sre_c.LITERAL:
            chars.add(chr(av))
        elif op == sre_c.RANGE:
            chars.update(chr(c) for c in range(av[0], av[1] + 1))
        elif op == sre_c.CATEGORY:
            chars.update(CATEGORY.get(av, ""))
    if negate:
        chars = set(PRINTABLE) - chars
    return sorted(chars) or ["x"]


def gen(parsed, rng, out):
    for op, av in parsed:
        if op == sre_c.LITERAL:
            out.append(chr(av))
        elif op == sre_c.NOT_LITERAL:
            out.append(rng.choice([c for c in string.ascii_letters if ord(c) != av]))
        elif op == sre_c.ANY:
            out.append(rng.choice(string.ascii_letters + string.digits))
        elif op == sre_c.IN:
            out.append(rng.choice(set_chars(av)))
        elif op == sre_c.CATEGORY:
            out.append(rng.choice(CATEGORY.get(av, "x")))
        elif op in (sre_c.MAX_REPEAT, sre_c.MIN_REPEAT, getattr(sre_c, "POSSESSIVE_REPEAT", None)):
            lo, hi, sub = av
            hi = lo + 1 if hi == sre_c.MAXREPEAT else hi
            for _ in range(rng.randint(lo, hi)):
                gen(sub, rng, out)
        elif op == sre_c.SUBPATTERN:
            gen(av[-1], rng, out)
        elif op == sre_c.BRANCH:
            gen(rng.choice(av[1]), rng, out)
        # AT (anchors), ASSERT, ASSERT_NOT, GROUPREF: nothing to write


def new_secret(rx, rng):
    return "".join(gen_list(sre_parse.parse(go_to_python(rx)), rng))


def gen_list(parsed, rng):
    out = []
    gen(parsed, rng, out)
    return out


# ---- reading gitleaks' Go rule files ----

TOKEN = re.compile(r'''
    (?P<ws>\s+|//[^\n]*|/\*.*?\*/)
  | (?P<raw>`[^`]*`)
  | (?P<str>"(?:\\.|[^"\\\n])*")
  | (?P<ident>[A-Za-z_][A-Za-z0-9_.]*)
  | (?P<num>[0-9]+)
  | (?P<op>:=|\.\.\.|[-+*/=(){}\[\],:;<>!&|%])
''', re.X | re.S)


def tokens(src):
    i, out = 0, []
    while i < len(src):
        m = TOKEN.match(src, i)
        if not m:
            out.append(("op", src[i]))
            i += 1
            continue
        i = m.end()
        kind = m.lastgroup
        if kind == "ws":
            continue
        text = m.group()
        if kind == "raw":
            out.append(("str", text[1:-1]))
        elif kind == "str":
            out.append(("str", bytes(text[1:-1], "utf-8").decode("unicode_escape").encode("latin-1").decode("utf-8", "replace")))
        else:
            out.append((kind if kind != "num" else "num", text))
    return out


class Unreadable(Exception):
    pass


class Eval:
    """Evaluates the expressions gitleaks writes its examples with; each value is a list of
    strings (a string is a list of one)."""

    def __init__(self, toks, rng, gen_samples):
        self.t, self.i, self.rng, self.vars = toks, 0, rng, {}
        self.gen_samples = gen_samples

    def peek(self, k=0):
        return self.t[self.i + k] if self.i + k < len(self.t) else ("eof", "")

    def take(self, text=None):
        tok = self.peek()
        if text is not None and tok[1] != text:
            raise Unreadable(f"wanted {text!r}, got {tok[1]!r}")
        self.i += 1
        return tok

    def expr(self):
        vals = self.term()
        while self.peek()[1] == "+":
            self.take()
            right = self.term()
            if len(vals) != 1 or len(right) != 1:
                raise Unreadable("+ of lists")
            vals = [vals[0] + right[0]]
        return vals

    def args(self):
        self.take("(")
        out = []
        while self.peek()[1] != ")":
            out.append(self.expr())
            if self.peek()[1] == "...":
                self.take()
            if self.peek()[1] == ",":
                self.take()
        self.take(")")
        return out

    def one(self, v):
        if len(v) != 1:
            raise Unreadable("a list where a string was wanted")
        return v[0]

    def term(self):
        kind, text = self.take()
        if kind == "str":
            return [text]
        if text == "[" and self.peek()[1] == "]":
            self.take("]")
            self.take()  # string
            self.take("{")
            out = []
            while self.peek()[1] != "}":
                out.extend(self.expr())
                if self.peek()[1] == ",":
                    self.take()
            self.take("}")
            return out
        if kind != "ident":
            raise Unreadable(f"unexpected {text!r}")
        if text in self.vars and self.peek()[1] != "(":
            return list(self.vars[text])
        args = self.args()
        helpers = {"utils.AlphaNumeric": "[a-z0-9]{%s}", "utils.Hex": "[a-f0-9]{%s}",
                   "utils.Numeric": "[0-9]{%s}", "utils.AlphaNumericExtendedShort": "[a-z0-9_-]{%s}",
                   "utils.AlphaNumericExtended": r"[a-z0-9=_\-]{%s}",
                   "utils.AlphaNumericExtendedLong": r"[a-z0-9\/=_\+\-]{%s}"}
        if text in helpers:
            return [helpers[text] % self.one(args[0])]
        if text == "utils.Hex8_4_4_4_12":
            return ["[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"]
        if text == "secrets.NewSecret":
            return [new_secret(self.one(args[0]), self.rng)]
        if text == "utils.GenerateSampleSecrets":
            return self.gen_samples(self.one(args[0]), self.one(args[1]))
        if text == "utils.GenerateSampleSecret":
            return [f'{self.one(args[0])}_api_token = "{self.one(args[1])}"']
        if text == "fmt.Sprintf":
            fmt_, rest = self.one(args[0]), [self.one(a) for a in args[1:]]
            if re.search(r"%[^s%]", fmt_):
                raise Unreadable("a format other than %s")
            return [fmt_.replace("%%", "\0") % tuple(rest)][:1] if rest else [fmt_]
        if text == "strings.Repeat":
            return [self.one(args[0]) * int(self.one(args[1]))]
        if text == "append":
            out = []
            for a in args:
                out.extend(a)
            return out
        raise Unreadable(f"call of {text}")


def sample_templates(repo, commit):
    """GenerateSampleSecrets' templates, read from utils/generate.go."""
    src = git_show(repo, commit, "cmd/generate/config/utils/generate.go")
    body = src[src.index("samples := map[string]string{"):]
    body = body[:body.index("\n\t}\n")]
    out = []
    for line in body.splitlines():
        line = line.strip()
        if line.startswith("//") or ":" not in line:
            continue
        toks = tokens(line)
        if len(toks) >= 3 and toks[0][0] == "str" and toks[1][1] == ":" and toks[2][0] == "str":
            out.append(toks[2][1])
    return out


def gitleaks_examples(repo, commit=GITLEAKS_COMMIT, seed=24):
    repo = git_dir(repo)
    rng = random.Random(seed)
    templates = sample_templates(repo, commit)

    calls = [0]

    def samples(ident, secret):
        # One case per secret: the k-th call takes the k-th context, so every context is used
        # and a rule's count is its number of secrets, not 26 copies of each.
        t = templates[calls[0] % len(templates)]
        calls[0] += 1
        return [t.replace("{i}", ident).replace("{I}", ident.upper()).replace("{s}", secret)]

    cases, skipped = [], 0
    for path in git_ls(repo, commit, "cmd/generate/config/rules/"):
        if not path.endswith(".go") or path.endswith("_test.go"):
            continue
        src = git_show(repo, commit, path)
        for fn in re.split(r"\nfunc ", src)[1:]:
            rid = re.search(r'RuleID:\s*"([^"]+)"', fn)
            if not rid:
                continue
            rid = rid.group(1)
            ev = Eval(tokens(fn), rng, samples)
            got, skip = statements(ev)
            skipped += skip
            for name, vals in got:
                for text in vals:
                    cases.append(("gitleaks", rid, family(rid), name == "tps", text))
    return cases, skipped


def statements(ev):
    """Every `tps`/`fps` assignment (and string variables they use) in one function."""
    got, skipped = [], 0
    t = ev.t
    while ev.i < len(t):
        kind, text = t[ev.i]
        nxt = t[ev.i + 1][1] if ev.i + 1 < len(t) else ""
        if kind == "ident" and nxt in (":=", "=") and (ev.i == 0 or t[ev.i - 1][1] in ("{", "}", ")", ";")
                                                       or t[ev.i - 1][0] in ("str", "ident", "num")):
            start = ev.i
            ev.i += 2
            try:
                vals = ev.expr()
                if text in ("tps", "fps"):
                    prior = ev.vars.get(text, []) if t[start + 2][1] == "append" else []
                    # append(tps, ...) evaluates tps itself: keep only what was added
                    new = vals[len(prior):] if prior and vals[:len(prior)] == prior else vals
                    got.append((text, new))
                ev.vars[text] = vals
            except (Unreadable, ValueError, IndexError, TypeError, re.error) as e:
                if text in ("tps", "fps"):
                    skipped += 1
                ev.i = start + 2
            continue
        ev.i += 1
    return got, skipped


def kingfisher_examples(repo, commit=KINGFISHER_COMMIT):
    import yaml
    repo = git_dir(repo)
    cases = []
    for path in git_ls(repo, commit, "data/rules/"):
        if not path.endswith((".yml", ".yaml")):
            continue
        doc = yaml.safe_load(git_show(repo, commit, path)) or {}
        for rule in doc.get("rules", []) or []:
            if rule.get("visible") is False:
                # a part another rule needs (a host name, an account id), never reported alone
                continue
            rid = str(rule.get("id", path))
            fam = family(rid + " " + str(rule.get("name", "")))
            for text in rule.get("examples", []) or []:
                cases.append(("kingfisher", rid, fam, True, str(text)))
            for text in rule.get("negative_examples", []) or []:
                cases.append(("kingfisher", rid, fam, False, str(text)))
    return cases


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gitleaks-repo", required=True)
    ap.add_argument("--kingfisher-repo", required=True)
    a = ap.parse_args()
    g, skipped = gitleaks_examples(a.gitleaks_repo)
    k = kingfisher_examples(a.kingfisher_repo)
    from collections import Counter
    c = Counter((peer, fam, pos) for peer, _, fam, pos, _ in g + k)
    for key in sorted(c):
        print(*key, c[key], sep="\t")
    print(f"gitleaks: {len(g)} examples, {skipped} assignments skipped; kingfisher: {len(k)}", file=sys.stderr)


if __name__ == "__main__":
    main()
