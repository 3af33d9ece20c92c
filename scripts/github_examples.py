#!/usr/bin/env python3
"""Writes the answers and event payloads the tests of `ci` start from (tests/data/github/),
copied from GitHub's published API description (`@octokit/openapi`'s examples) and its
webhook examples (`@octokit/webhooks-examples`), both installed by .ci/run with `npm ci` in
.ci/node.

Usage: github_examples.py NODE_MODULES OUT_DIR

The tests change only what they are about (repository, numbers, commits, file names); with
the cargo feature external-tools, tests/it/ci_api.rs checks these copies against the packages.
"""
import json
import os
import sys

# file name -> the description's example
API = {
    "check-run": "check-run",
    "diff-entry": "diff-entry-items",
    "sarif-upload": "code-scanning-sarif-upload",
    "sarif-upload-status": "code-scanning-sarif-upload-status",
    "pull-request": "pull-request",
    "commit-comparison": "commit-comparison",
    "code-scanning-alert": "code-scanning-alert-items",
    "code-scanning-alert-dismissed": "code-scanning-alert-dismissed",
    "issue-comment": "issue-comment",
}
# file name -> (event, action): the first webhook example of that event and action
EVENTS = {
    "event-pull_request": ("pull_request", "synchronize"),
    "event-pull_request-opened": ("pull_request", "opened"),
    "event-push": ("push", None),
    "event-merge_group": ("merge_group", "checks_requested"),
    "event-workflow_dispatch": ("workflow_dispatch", None),
}


def first_item(value):
    return value[0] if isinstance(value, list) else value


def examples(node_modules):
    path = os.path.join(node_modules, "@octokit/openapi/generated/api.github.com.json")
    with open(path, encoding="utf-8") as f:
        described = json.load(f)["components"]["examples"]
    out = {name: first_item(described[key]["value"]) for name, key in API.items()}
    path = os.path.join(node_modules, "@octokit/webhooks-examples/api.github.com/index.json")
    with open(path, encoding="utf-8") as f:
        hooks = {h["name"]: h["examples"] for h in json.load(f)}
    for name, (event, action) in EVENTS.items():
        found = [e for e in hooks[event] if action is None or e.get("action") == action]
        if not found:
            raise SystemExit(f"no {event} example with action {action}")
        out[name] = found[0]
    return out


def render(value):
    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv):
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    os.makedirs(argv[2], exist_ok=True)
    for name, value in examples(argv[1]).items():
        with open(os.path.join(argv[2], f"{name}.json"), "w", encoding="utf-8") as f:
            f.write(render(value))
    print(f"github_examples: {len(API) + len(EVENTS)} files in {argv[2]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
