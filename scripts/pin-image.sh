#!/usr/bin/env bash
# Points action.yml at a published image by tag and digest (docs/action.md, "Releases"):
#
#   scripts/pin-image.sh IMAGE TAG DIGEST [ACTION_YML]
#
# IMAGE is the registry path without tag (ghcr.io/<owner>/hippo-packs, lower-case), TAG the
# release's version tag (vX.Y.Z), DIGEST the manifest list's digest the push printed (sha256:
# and 64 lower-case hex digits). Replaces the one `image:` line under `runs:` (`image:
# Dockerfile` on the default branch, or an earlier pin) with
# `image: docker://IMAGE:TAG@DIGEST`: the tag says which release it is, the digest decides what
# is pulled. Refuses anything else, leaving the file as it was: a digest or tag of another shape,
# an image path with a tag or odd characters, an action.yml without exactly one such line.
# Running it twice gives the same file. The release workflow runs it for the release commit;
# tests/it/release.rs runs it on a fake digest.
set -euo pipefail

usage="usage: pin-image.sh IMAGE TAG DIGEST [ACTION_YML]"
image=${1:?$usage}
tag=${2:?$usage}
digest=${3:?$usage}
action=${4:-action.yml}

[[ "$digest" =~ ^sha256:[0-9a-f]{64}$ ]] \
    || { echo "pin-image: not a sha256 digest: $digest" >&2; exit 2; }
[[ "$tag" =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]] \
    || { echo "pin-image: not a release tag vX.Y.Z: $tag" >&2; exit 2; }
[[ "$image" =~ ^[a-z0-9.-]+(:[0-9]+)?(/[a-z0-9._-]+)+$ ]] \
    || { echo "pin-image: not an image path without tag (lower-case): $image" >&2; exit 2; }
[ -f "$action" ] || { echo "pin-image: no $action" >&2; exit 2; }

count=$(grep -cE '^  image: ' "$action" || true)
[ "$count" = 1 ] || { echo "pin-image: $action has $count 'image:' lines under runs, expected 1" >&2; exit 2; }

tmp=$(mktemp "$action.XXXXXX")
sed -E "s|^  image: .*$|  image: docker://$image:$tag@$digest|" "$action" > "$tmp"
chmod --reference="$action" "$tmp"
mv "$tmp" "$action"
grep -E '^  image: ' "$action"
