#!/usr/bin/env bash
# Runs every fuzz target for a fixed budget (default 60 s each) with cargo-fuzz and libFuzzer.
# usage: scripts/fuzz.sh [SECONDS] [TARGET...]
# Needs cargo-fuzz (cargo install --locked cargo-fuzz) and a nightly toolchain, or the stable one
# with RUSTC_BOOTSTRAP=1 (libFuzzer's sanitizer flags are nightly-only). A crash leaves its input
# in fuzz/artifacts/<target>/; turn it into a regression test under tests/ before fixing it. Built
# with debug assertions (-a), so the decoders' checks against the parsers' own values run too.
# The corpora start from fuzz/seeds/<target>/ and, for `decode`, every TOML, JSON and JSON-lines
# file of tests/ (the fixtures and the page's packs). Not part of .ci/run.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}; shift || true
# A machine without the tools says so on its own line rather than passing silently.
if cargo +nightly --version >/dev/null 2>&1; then
  fuzz=(cargo +nightly fuzz)
elif cargo fuzz --version >/dev/null 2>&1 && [ "$(RUSTC_BOOTSTRAP=1 rustc -Z help 2>/dev/null | head -c1)" != "" ]; then
  export RUSTC_BOOTSTRAP=1
  fuzz=(cargo fuzz)
else
  if ! cargo fuzz --version >/dev/null 2>&1 && ! cargo +nightly fuzz --version >/dev/null 2>&1; then
    echo "SKIPPED fuzz: cargo-fuzz is not installed (cargo install --locked cargo-fuzz)"; exit 0
  fi
  echo "SKIPPED fuzz: no nightly toolchain and RUSTC_BOOTSTRAP=1 does not unlock -Z flags"; exit 0
fi
if ! "${fuzz[@]}" --version >/dev/null 2>&1; then
  echo "SKIPPED fuzz: cargo-fuzz is not installed (cargo install --locked cargo-fuzz)"; exit 0
fi
# Seeds: copied in once; libFuzzer adds what it finds beside them.
for seeds in fuzz/seeds/*/; do
  t=$(basename "$seeds"); mkdir -p "fuzz/corpus/$t"; cp -n "$seeds"* "fuzz/corpus/$t/" 2>/dev/null || true
done
mkdir -p fuzz/corpus/decode
find tests -type f \( -name '*.toml' -o -name '*.json' -o -name '*.jsonl' \) -size -64k -print0 |
  while IFS= read -r -d '' f; do cp -n "$f" "fuzz/corpus/decode/$(echo "$f" | tr '/ ' '__')" 2>/dev/null || true; done
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=($("${fuzz[@]}" list))
status=0
for t in "${targets[@]}"; do
  echo "== fuzz $t for ${secs}s"
  if "${fuzz[@]}" run -a "$t" -- -max_total_time="$secs" -rss_limit_mb=2048 -max_len=70000 2>&1 | tail -n 4; then
    echo "   $t: clean"
  else
    echo "   $t: CRASH (see fuzz/artifacts/$t/)"; status=1
  fi
done
exit $status
