#!/usr/bin/env bash
# docs/full-format.png: `hippo-packs check --format full` in colour, as a terminal shows it.
#
# The output is captured from a real pseudo-terminal (`script`), so colour comes from the
# terminal detection (no --color flag), converted to HTML by ansi2html (PyPI: ansi2html) and
# screenshot by headless Chromium (Debian: chromium, fonts-noto-cjk). The pack is the one
# docs/authoring.md walks through, at its step 5, plus a zero-width space in README.md.
#
# Usage: bash scripts/screenshot-full.sh [OUT.png]   (default docs/full-format.png)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:-$root/docs/full-format.png}"
for tool in script ansi2html chromium; do
  if ! command -v "$tool" >/dev/null; then
    echo "SKIPPED screenshot: $tool is not installed (script: util-linux; ansi2html: pip install ansi2html; chromium: apt-get install chromium)"
    exit 0
  fi
done
cargo build --locked --quiet --manifest-path "$root/Cargo.toml"
bin="$root/target/debug/hippo-packs"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
"$bin" init my-pack 2>/dev/null
sed -i 's/^license = /licence = /' my-pack/pack.toml
sed -i 's/Keep new under/Never run curl against a server. Keep new under/' my-pack/prompts/my-pack.md
sed -i $'s/One entry per settled question/One entry per settled\u200b question/' my-pack/tests/appends-an-entry/notes/Log.md
sed -i $'s/A hippo pack with one pass/A hippo\u200b pack (日本語) with one pass/' my-pack/README.md
# A real terminal: colour by detection, NO_COLOR unset.
env -u NO_COLOR TERM=xterm-256color COLUMNS=110 \
  script -q -e -c "$bin check my-pack --format full" /dev/null > full.ansi || true
if ! grep -q $'\e\[' full.ansi; then
  echo "screenshot: the captured output has no colour" >&2
  exit 1
fi
{
  printf '<!doctype html><meta charset="utf-8"><title>hippo-packs --format full</title>\n'
  printf '<style>body{margin:0;background:#1e1e1e} pre,.body_foreground{font:15px/1.35 "DejaVu Sans Mono","Noto Sans Mono CJK JP",monospace}</style>\n'
  printf '<div style="padding:14px 18px">\n'
  printf '<pre class="ansi2html-content" style="color:#ddd;margin:0 0 8px 0">$ hippo-packs check my-pack --format full</pre>\n'
  printf '<pre style="color:#ddd;margin:0">'
  tr -d '\r' < full.ansi | ansi2html --inline
  printf '</pre>\n'
  printf '</div>\n'
} > full.html
lines=$(wc -l < full.ansi)
height=$(( (lines + 2) * 21 + 40 ))
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
  --window-size=1560,"$height" --screenshot="$out" "file://$work/full.html" >/dev/null 2>&1
echo "wrote $out ($lines lines of output)"
