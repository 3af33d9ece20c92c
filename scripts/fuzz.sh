#!/usr/bin/env bash
# Runs every fuzz target for a fixed budget (default 60 s each) with cargo-fuzz and libFuzzer.
# usage: scripts/fuzz.sh [SECONDS] [TARGET...]
# Needs a nightly toolchain and cargo-fuzz (cargo install --locked cargo-fuzz). A crash leaves its
# input in fuzz/artifacts/<target>/; turn it into a regression test under tests/ before fixing it.
set -euo pipefail
cd "$(dirname "$0")/.."
secs=${1:-60}; shift || true
# A machine without the tools says so on its own line rather than passing silently.
if ! cargo +nightly --version >/dev/null 2>&1; then
  echo "SKIPPED fuzz: no nightly toolchain (rustup toolchain install nightly)"; exit 0
fi
if ! cargo +nightly fuzz --version >/dev/null 2>&1; then
  echo "SKIPPED fuzz: cargo-fuzz is not installed (cargo install --locked cargo-fuzz)"; exit 0
fi
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=($(cargo +nightly fuzz list))
status=0
for t in "${targets[@]}"; do
  echo "== fuzz $t for ${secs}s"
  if cargo +nightly fuzz run "$t" -- -max_total_time="$secs" -rss_limit_mb=2048 -max_len=70000 2>&1 | tail -n 4; then
    echo "   $t: clean"
  else
    echo "   $t: CRASH (see fuzz/artifacts/$t/)"; status=1
  fi
done
exit $status
