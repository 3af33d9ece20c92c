#!/usr/bin/env bash
# Validates the SARIF hippo-packs writes for the conformance packs with Microsoft's SARIF
# Multitool (`validate --rule-kind "Sarif;Gh"`: the SARIF rules and GitHub's ingestion rules).
#
# usage: scripts/validate-sarif.sh [PACKS_DIR]
#   PACKS_DIR  a folder holding the conformance packs `broken` and `decision-log`
#              (default: examples/packs, copies of shared/conformance).
# env:  BIN  the hippo-packs binary (default: target/debug/hippo-packs, built if missing)
#       SARIF_MULTITOOL_DIR  where the multitool is installed from npm (default:
#                            target/sarif-multitool)
#       LEVELS  the result levels that fail the run (default "error|warning"; notes are printed)
#
# The multitool exits 0 even when it reports errors, so this script reads its output: it prints
# every finding and exits 1 when one is at a failing level.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
packs=$(cd "${1:-$root/examples/packs}" && pwd)
bin=${BIN:-$root/target/debug/hippo-packs}
tool_dir=${SARIF_MULTITOOL_DIR:-$root/target/sarif-multitool}
levels=${LEVELS:-error|warning}
version=5.7.0

if [ ! -x "$bin" ]; then (cd "$root" && cargo build --quiet); fi

multitool=$(find "$tool_dir" -name Sarif.Multitool -type f 2>/dev/null | head -1 || true)
if [ -z "$multitool" ]; then
  mkdir -p "$tool_dir"
  npm install --no-save --no-audit --no-fund --prefix "$tool_dir" "@microsoft/sarif-multitool@$version" >/dev/null
  multitool=$(find "$tool_dir" -name Sarif.Multitool -type f | head -1)
fi
# npm does not run the package's postinstall (chmod) unless scripts are allowed.
chmod u+x "$multitool"

work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
cp -r "$packs/broken" "$packs/decision-log" "$work/"
mkdir -p "$work/broken/.git" && echo "ref: refs/heads/main" > "$work/broken/.git/HEAD"
cp -r "$packs/decision-log" "$work/failing"
sed -i 's/^applied = 1$/applied = 0/; s/^contains = \["SQLite file"\]$/contains = ["postgres"]/' \
  "$work/failing/tests/cache-store/case.toml"
mkdir -p "$work/out"
make() { # name, args...
  local name=$1; shift
  (cd "$work" && "$bin" "$@" --format sarif > "out/$name.sarif") || true
}
make check-broken check broken
make check-good check decision-log
make check-nowhere check nowhere
make check-several check broken decision-log
make test-good test decision-log
make test-failing test failing
make test-broken test broken

status=0
for f in "$work"/out/*.sarif; do
  name=$(basename "$f")
  out=$("$multitool" validate --rule-kind "Sarif;Gh" --level "Error;Warning;Note" \
        "$f" -o "$work/out/$name.validation" --log ForceOverwrite 2>&1 || true)
  findings=$(grep -E ": (error|warning|note) [A-Z]+[0-9]+" <<<"$out" || true)
  failing=$(grep -cE ": ($levels) [A-Z]+[0-9]+" <<<"$out" || true)
  if ! grep -q "Analysis completed successfully" <<<"$out"; then
    echo "$name: the multitool did not complete:"; echo "$out"; status=1; continue
  fi
  echo "== $name: $(grep -c . <<<"$findings" || true) findings, $failing at level $levels"
  # One line per rule and level, with a count and the first message.
  grep -oE ": (error|warning|note) [A-Z]+[0-9]+" <<<"$findings" | sort | uniq -c || true
  if [ "$failing" -gt 0 ]; then
    grep -E ": ($levels) [A-Z]+[0-9]+" <<<"$out" | sed "s|$work/out/||"
    status=1
  fi
done
[ $status -eq 0 ] && echo "SARIF multitool: all files pass (no $levels)" || echo "SARIF multitool: FAILED"
exit $status
