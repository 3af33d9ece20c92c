#!/usr/bin/env bash
# Writes every output of a hippo-packs binary over the repository's packs into a folder, so two
# builds can be compared byte for byte (`diff -r`): a refactor must change nothing here.
# usage: scripts/outputs.sh BINARY OUTDIR
set -u
bin=$(realpath "$1"); out=$(realpath -m "$2")
cd "$(dirname "$0")/.."
rm -rf "$out"; mkdir -p "$out"
packs=(examples/packs/* tests/packs/broken tests/packs/decision-log)
for d in tests/fixtures/*/*/; do packs+=("${d%/}"); done
n=0
for p in "${packs[@]}"; do
  [ -d "$p" ] || continue
  n=$((n+1)); tag=$(printf '%04d' "$n")_$(echo "$p" | tr '/' '_')
  for cmd in check test; do
    for fmt in text json sarif github; do
      "$bin" $cmd "$p" --format $fmt >"$out/$tag.$cmd.$fmt" 2>"$out/$tag.$cmd.$fmt.err"
      echo "exit $?" >>"$out/$tag.$cmd.$fmt.err"
    done
  done
  "$bin" test "$p" --junit "$out/$tag.junit.xml" --sarif "$out/$tag.test.sarif-file" --print-prompts \
    >"$out/$tag.prompts" 2>&1; echo "exit $?" >>"$out/$tag.prompts"
  # The streamed text report with its prompts after it.
  "$bin" test "$p" --print-prompts >"$out/$tag.stream-prompts" 2>&1; echo "exit $?" >>"$out/$tag.stream-prompts"
done
# Several packs at once (prefixes, streaming) and the catalogue.
"$bin" check examples/packs/* tests/packs/broken >"$out/multi.check.text" 2>&1; echo "exit $?" >>"$out/multi.check.text"
"$bin" test examples/packs/* >"$out/multi.test.text" 2>&1; echo "exit $?" >>"$out/multi.test.text"
"$bin" test examples/packs/* tests/packs/decision-log --print-prompts >"$out/multi.test.prompts" 2>&1; echo "exit $?" >>"$out/multi.test.prompts"
"$bin" test examples/packs/* --format json >"$out/multi.test.json" 2>&1; echo "exit $?" >>"$out/multi.test.json"
"$bin" check examples/packs/* --format sarif >"$out/multi.check.sarif" 2>&1
"$bin" rules >"$out/rules" 2>&1
for id in $("$bin" rules | awk '{print $1}' | grep -E '^[a-z0-9-]+$'); do
  "$bin" rules "$id" >"$out/rules.$id" 2>&1
done
for c in "" check test rules ci; do "$bin" $c --help >"$out/help.${c:-main}" 2>&1; done
echo "$n packs, $(ls "$out" | wc -l) files in $out"
