#!/usr/bin/env python3
"""Trims GitHub's published OpenAPI description to the operations `hippo-packs ci` calls and
everything they reference, so a validating proxy loaded with it starts in seconds.

Usage: trim_openapi.py FULL.json OUT.json [--routed]

FULL.json is `@octokit/openapi`'s `generated/api.github.com.json` (installed by .ci/run with
`npm ci` in .ci/node). With `--routed` every path gets a first segment of its own, `/{test}`
(a path parameter, any string), so one proxy serves every test of a test binary and the
stand-in behind it routes each request to its test (tests/common/proxy.rs); nothing else of
GitHub's description changes.
"""
import json
import sys

# (path, method): every request `ci` makes (src/github/).
OPERATIONS = [
    ("/repos/{owner}/{repo}/code-scanning/sarifs", "post"),
    ("/repos/{owner}/{repo}/code-scanning/sarifs/{sarif_id}", "get"),
    ("/repos/{owner}/{repo}/pulls/{pull_number}", "get"),
    ("/repos/{owner}/{repo}/pulls/{pull_number}/files", "get"),
    ("/repos/{owner}/{repo}/check-runs", "post"),
    ("/repos/{owner}/{repo}/check-runs/{check_run_id}", "patch"),
    ("/repos/{owner}/{repo}/compare/{basehead}", "get"),
    ("/repos/{owner}/{repo}/code-scanning/alerts", "get"),
    ("/repos/{owner}/{repo}/code-scanning/alerts/{alert_number}", "patch"),
    ("/repos/{owner}/{repo}/issues/{issue_number}/comments", "get"),
    ("/repos/{owner}/{repo}/issues/{issue_number}/comments", "post"),
    ("/repos/{owner}/{repo}/issues/comments/{comment_id}", "patch"),
]
# GraphQL (`POST /graphql`, the token's `viewer`) is not in this REST description: the tests'
# stand-in checks those requests against GitHub's GraphQL schema itself (tests/common/graphql.rs).


def refs(value, found):
    """Collects every `$ref` below `value`."""
    if isinstance(value, dict):
        ref = value.get("$ref")
        if isinstance(ref, str):
            found.add(ref)
        for v in value.values():
            refs(v, found)
    elif isinstance(value, list):
        for v in value:
            refs(v, found)


def resolve(doc, ref):
    """The component a local `#/a/b/c` reference names."""
    if not ref.startswith("#/"):
        raise SystemExit(f"not a local reference: {ref}")
    node = doc
    for part in ref[2:].split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


ROUTE = {"name": "test", "in": "path", "required": True, "schema": {"type": "string"}}


def trim(doc, routed=False):
    paths = {}
    for path, method in OPERATIONS:
        op = doc["paths"].get(path, {}).get(method)
        if op is None:
            raise SystemExit(f"the description has no {method.upper()} {path}")
        if routed:
            op = dict(op, parameters=[ROUTE] + op.get("parameters", []))
            path = "/{test}" + path
        paths.setdefault(path, {})[method] = op
    out = {
        "openapi": doc["openapi"],
        "info": doc["info"],
        "servers": doc.get("servers", []),
        "paths": paths,
        "components": {},
    }
    # Copy referenced components until no new reference appears.
    seen, todo = set(), set()
    refs(paths, todo)
    while todo:
        ref = todo.pop()
        if ref in seen:
            continue
        seen.add(ref)
        parts = ref[2:].split("/")
        if len(parts) != 3 or parts[0] != "components":
            raise SystemExit(f"not a component: {ref}")
        target = resolve(doc, ref)
        out["components"].setdefault(parts[1], {})[parts[2]] = target
        refs(target, todo)
    return out


def main(argv):
    routed = "--routed" in argv[1:]
    args = [a for a in argv[1:] if a != "--routed"]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(args[0], encoding="utf-8") as f:
        doc = json.load(f)
    trimmed = trim(doc, routed)
    with open(args[1], "w", encoding="utf-8") as f:
        json.dump(trimmed, f, indent=1, sort_keys=True)
    kinds = {k: len(v) for k, v in trimmed["components"].items()}
    print(f"trim_openapi: {len(OPERATIONS)} operations, components {kinds}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
