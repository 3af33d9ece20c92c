#!/usr/bin/env bash
# Points action.yml at a published image by digest (docs/action.md, "Releases"):
#
#   scripts/pin-image.sh IMAGE DIGEST [ACTION_YML]
#
# IMAGE is the registry path without tag (ghcr.io/<owner>/hippo-packs, lower-case), DIGEST the
# manifest list's digest the push printed (sha256: and 64 lower-case hex digits). Replaces the
# one `image:` line under `runs:` (`image: Dockerfile` on the default branch) with
# `image: docker://IMAGE@DIGEST`, and refuses anything else: a digest of another shape, an
# image path with a tag or odd characters, an action.yml without exactly one such line. The
# release workflow runs it on the release tag after the push; tests/release.rs runs it on a
# fake digest.
set -euo pipefail

image=${1:?usage: pin-image.sh IMAGE DIGEST [ACTION_YML]}
digest=${2:?usage: pin-image.sh IMAGE DIGEST [ACTION_YML]}
action=${3:-action.yml}

[[ "$digest" =~ ^sha256:[0-9a-f]{64}$ ]] \
    || { echo "pin-image: not a sha256 digest: $digest" >&2; exit 2; }
[[ "$image" =~ ^[a-z0-9.-]+(:[0-9]+)?(/[a-z0-9._-]+)+$ ]] \
    || { echo "pin-image: not an image path without tag (lower-case): $image" >&2; exit 2; }
[ -f "$action" ] || { echo "pin-image: no $action" >&2; exit 2; }

count=$(grep -cE '^  image: ' "$action" || true)
[ "$count" = 1 ] || { echo "pin-image: $action has $count 'image:' lines under runs, expected 1" >&2; exit 2; }

tmp=$(mktemp "$action.XXXXXX")
sed -E "s|^  image: .*$|  image: docker://$image@$digest|" "$action" > "$tmp"
mv "$tmp" "$action"
grep -E '^  image: ' "$action"
