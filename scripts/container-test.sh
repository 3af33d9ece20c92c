#!/usr/bin/env bash
# The container test (docs/action.md, "The container test"): builds the release image
# (release.Dockerfile, from dist/ as its context) from a static binary and runs `hippo-packs ci` in it exactly as GitHub's
# runner runs a Docker action (actions/runner's ContainerActionHandler): --workdir
# /github/workspace with the workspace mounted there, owned by the runner's user (1001);
# HOME=/github/home mounted from $RUNNER_TEMP/_github_home and RUNNER_TEMP passed with the
# runner's path; GITHUB_OUTPUT / GITHUB_STEP_SUMMARY under /github/file_commands (mounted from
# $RUNNER_TEMP/_runner_file_commands), GITHUB_EVENT_PATH under /github/workflow; against a
# stand-in for GitHub's API on 127.0.0.1 (scripts/standin.py), on the example registry
# (examples/packs). Then checks that no file was added to the workspace, the verdict, the
# outputs (verdict, failing-packs, the SARIF at the runner's path the sarif-file output names,
# with the runner user's owner), and what the stand-in received, and prints the image's size and
# the container's start-to-verdict time.
#
# Needs root, buildah, podman, runc (Debian: apt-get install -y podman buildah runc musl-tools)
# and a static binary: the x86_64-unknown-linux-musl target (rustup target add ...), else a
# static glibc build (crt-static). When something cannot be had it prints `SKIPPED <what>: <why>`
# on its own line and exits 0; any failed check exits 1.
set -euo pipefail
cd "$(dirname "$0")/.."

skip() { echo "SKIPPED container test: $*"; exit 0; }
fail() { echo "FAILED container test: $*" >&2; exit 1; }

[ "$(uname -m)" = x86_64 ] || skip "the script builds an x86_64 binary; this machine is $(uname -m)"
[ "$(id -u)" = 0 ] || skip "podman and buildah run as root here (vfs storage, runc, no rootless set-up)"
for tool in buildah podman runc python3; do
    command -v "$tool" >/dev/null 2>&1 || skip "$tool is not installed (apt-get install -y podman buildah runc musl-tools)"
done

podman_() { podman --storage-driver vfs --runtime runc --cgroup-manager cgroupfs "$@"; }
image=localhost/hippo-packs:container-test
work=$(mktemp -d)
standin_pid=
cleanup() {
    [ -n "$standin_pid" ] && kill "$standin_pid" 2>/dev/null || true
    rm -rf "$work" dist
}
trap cleanup EXIT

# 1. A static binary: musl when its target is installed, else glibc with crt-static.
export CARGO_TARGET_DIR=${CONTAINER_TEST_TARGET_DIR:-target/musl}
export CARGO_PROFILE_RELEASE_STRIP=true
if rustup target list --installed 2>/dev/null | grep -qx x86_64-unknown-linux-musl; then
    kind="musl (x86_64-unknown-linux-musl)"
    cargo build --quiet --release --locked --target x86_64-unknown-linux-musl
    bin=$CARGO_TARGET_DIR/x86_64-unknown-linux-musl/release/hippo-packs
else
    echo "note: x86_64-unknown-linux-musl is not installed (rustup target add x86_64-unknown-linux-musl); building a static glibc binary instead"
    kind="glibc, crt-static (x86_64-unknown-linux-gnu)"
    RUSTFLAGS="-C target-feature=+crt-static" \
        cargo build --quiet --release --locked --target x86_64-unknown-linux-gnu
    bin=$CARGO_TARGET_DIR/x86_64-unknown-linux-gnu/release/hippo-packs
fi
if file "$bin" 2>/dev/null | grep -q "dynamically linked"; then
    fail "$bin is dynamically linked: $(file "$bin")"
fi
echo "binary: $kind, $(stat -c %s "$bin") bytes"

# 2. The image: release.Dockerfile, FROM scratch (nothing is pulled), dist/ staged as the
# release workflow stages it.
rm -rf dist
mkdir -p dist/amd64/tmp
chmod 1777 dist/amd64/tmp
cp "$bin" dist/amd64/hippo-packs
buildah --storage-driver vfs bud --quiet --layers=false --pull=false \
    --file release.Dockerfile --build-arg TARGETARCH=amd64 --platform linux/amd64 \
    -t "$image" dist >/dev/null
size=$(podman_ image inspect --format '{{.Size}}' "$image")
echo "image: $image, $size bytes ($(awk -v s="$size" 'BEGIN { printf "%.1f MB", s / 1000000 }'))"
[ "$size" -lt 20000000 ] || fail "the image is $size bytes, over the 20 MB goal"

# 3. The runner's folders (its _temp as $RUNNER_TEMP, the workspace owned by the runner's
# user), the example registry as the workspace, the stand-in.
ws=$work/workspace
temp=$work/runner/_temp
home=$temp/_github_home
commands=$temp/_runner_file_commands
workflow=$temp/_github_workflow
mkdir -p "$ws/examples" "$commands" "$workflow" "$home"
cp -R examples/packs "$ws/examples/packs"
head=0123456789abcdef0123456789abcdef01234567
mkdir -p "$ws/.git"
echo "$head" > "$ws/.git/HEAD"
: > "$commands/output"
: > "$commands/summary"
chown -R 1001:1001 "$ws" "$home"
echo '{"ref": "refs/heads/main", "repository": {"full_name": "octo/packs"}}' > "$workflow/event.json"
before=$(cd "$ws" && find . | LC_ALL=C sort)
record=$work/requests.jsonl
: > "$record"
python3 scripts/standin.py "$record" > "$work/standin.port" &
standin_pid=$!
for _ in $(seq 50); do [ -s "$work/standin.port" ] && break; sleep 0.1; done
port=$(head -n1 "$work/standin.port")
[ -n "$port" ] || fail "the stand-in did not start"

run_ci() { # run_ci PATH: the container as the runner starts it; prints the exit code
    local code=0
    podman_ run --rm --ulimit nofile=20000:20000 --ulimit nproc=1024:1024 --network host \
        --workdir /github/workspace \
        -v "$ws":/github/workspace -v "$home":/github/home \
        -v "$workflow":/github/workflow -v "$commands":/github/file_commands \
        -e HOME=/github/home -e RUNNER_TEMP="$temp" -e CI=true -e GITHUB_ACTIONS=true \
        -e GITHUB_WORKSPACE=/github/workspace \
        -e GITHUB_OUTPUT=/github/file_commands/output \
        -e GITHUB_STEP_SUMMARY=/github/file_commands/summary \
        -e GITHUB_EVENT_PATH=/github/workflow/event.json -e GITHUB_EVENT_NAME=push \
        -e GITHUB_API_URL="http://127.0.0.1:$port" -e GITHUB_REPOSITORY=octo/packs \
        -e GITHUB_SHA=ffffffffffffffffffffffffffffffffffffffff -e GITHUB_REF=refs/heads/main \
        -e INPUT_PATH="$1" -e INPUT_TEST=true -e INPUT_SARIF-FILE= -e INPUT_UPLOAD=auto \
        -e INPUT_CATEGORY=hippo-packs -e INPUT_FAIL-ON=error -e INPUT_SCOPE= \
        -e INPUT_ANNOTATIONS=auto -e INPUT_SHARD= -e INPUT_REF= -e INPUT_SHA= \
        -e INPUT_TOKEN=ghs_containerTestToken \
        "$image" ci > "$work/log" 2>&1 || code=$?
    echo "$code"
}

# 4. The example registry: the broken pack fails the job.
start=$(date +%s.%N)
code=$(run_ci examples/packs)
end=$(date +%s.%N)
echo "--- the container's log (examples/packs)"
cat "$work/log"
echo "---"
seconds=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
echo "start-to-verdict: ${seconds}s (podman run to exit, examples/packs: 2 packs, tests run)"
[ "$code" = 1 ] || fail "exit $code on the example registry, expected 1 (examples/packs/broken has errors)"
grep -q "^hippo-packs: 2 packs, .*: failed$" "$work/log" || fail "no verdict line"
output() { # output NAME: its value in $GITHUB_OUTPUT (the runner's `name<<DELIMITER` form)
    awk -v n="$1" 'index($0, n "<<") == 1 { getline; print; exit }' "$commands/output"
}
[ "$(output packs)" = 2 ] || fail "output packs=$(output packs), expected 2"
# 4 errors of the page's broken pack, and duplicate-name: both example packs are named decision-log.
[ "$(output errors)" = 5 ] || fail "output errors=$(output errors), expected 5"
[ "$(output uploaded)" = true ] || fail "output uploaded=$(output uploaded), expected true"
[ "$(output verdict)" = fail ] || fail "output verdict=$(output verdict), expected fail"
[ "$(output failing-packs)" = '["examples/packs/broken","examples/packs/decision-log"]' ] \
    || fail "output failing-packs=$(output failing-packs), expected both example packs"
[ "$(output check-run-url)" = https://github.com/octo/packs/runs/7 ] \
    || fail "output check-run-url=$(output check-run-url)"
sarif=$(output sarif-file)
[ "$sarif" = "$home/.hippo-packs/hippo-packs.sarif" ] \
    || fail "output sarif-file=$sarif, expected the runner's path $home/.hippo-packs/hippo-packs.sarif"
echo "outputs: verdict=$(output verdict) failing-packs=$(output failing-packs) check-run-url=$(output check-run-url) packs=$(output packs) errors=$(output errors) warnings=$(output warnings) uploaded=$(output uploaded) sarif-file=$sarif"
[ -s "$sarif" ] || fail "no SARIF file at $sarif, the path the output names"
[ "$(stat -c %u:%g "$sarif")" = 1001:1001 ] || fail "the SARIF file is owned by $(stat -c %u:%g "$sarif"), not the runner's user"
grep -q '"uri": "examples/packs/broken/' "$sarif" \
    || fail "the SARIF's URIs are not relative to the workspace"
after=$(cd "$ws" && find . | LC_ALL=C sort)
[ "$before" = "$after" ] || fail "files added to the workspace: $(diff <(echo "$before") <(echo "$after") | grep '^>' | head -5)"
echo "workspace: $(echo "$after" | wc -l) paths before and after the run, none added"
grep -q "Failed" "$commands/summary" || fail "the job summary does not say Failed"
python3 - "$record" "$head" <<'EOF' || fail "the stand-in did not receive what it should"
import json, sys
reqs = [json.loads(l) for l in open(sys.argv[1])]
ups = [r for r in reqs if r["method"] == "POST" and r["path"].endswith("/code-scanning/sarifs")]
runs = [r for r in reqs if r["method"] == "POST" and r["path"].endswith("/check-runs")]
assert len(ups) == 1, reqs
body = json.loads(ups[0]["body"])
assert body["commit_sha"] == sys.argv[2], body["commit_sha"]
assert body["ref"] == "refs/heads/main" and body["started_at"], body
# One check run, created in progress and completed by its last update with the verdict.
assert len(runs) == 1 and json.loads(runs[0]["body"])["status"] == "in_progress", runs
patches = [json.loads(r["body"]) for r in reqs if r["method"] == "PATCH" and "/check-runs/" in r["path"]]
assert patches and patches[-1]["status"] == "completed" and patches[-1]["conclusion"] == "failure", patches
print(f"stand-in: {len(reqs)} requests: the upload for {body['commit_sha'][:12]} on {body['ref']}, "
      f"one check run completed by its update {len(patches)} of {len(patches)}")
EOF

# 5. Control: the good pack alone passes.
: > "$commands/output"
code=$(run_ci examples/packs/decision-log)
[ "$code" = 0 ] || { cat "$work/log"; fail "exit $code on examples/packs/decision-log, expected 0"; }
[ "$(output verdict)" = pass ] && [ "$(output failing-packs)" = '[]' ] \
    || fail "the control's outputs: verdict=$(output verdict) failing-packs=$(output failing-packs)"
echo "control: examples/packs/decision-log alone passes (exit 0, verdict=pass, failing-packs=[])"

# 6. The review's base read inside the image: a pull request's merge checkout at depth 2 (as
# `fetch-depth: 2` leaves it), owned by the runner's user, where `git` as root would refuse
# ("dubious ownership"); the image has no git at all.
src=$PWD
repo=$work/repo
mkdir -p "$repo/origin"
g() { git -c user.name=t -c user.email=t@example.com -c init.defaultBranch=main "$@"; }
(
    cd "$repo/origin"
    g init -q . && cp -R "$src/examples/packs" packs && g add . && g commit -qm base
    g checkout -qb feature && echo "A note." >> packs/decision-log/README.md && g commit -qam change
    g checkout -q main && echo "# packs" > README.md && g add . && g commit -qm main
    g checkout -qb merge && g merge -q --no-ff -m merge feature
)
base=$(g -C "$repo/origin" rev-parse main)
pr_head=$(g -C "$repo/origin" rev-parse feature)
merge=$(g -C "$repo/origin" rev-parse merge)
g clone -q --depth 2 --branch merge "file://$repo/origin" "$repo/ws"
chown -R 1001:1001 "$repo/ws"
printf '{"number": 7, "pull_request": {"number": 7, "head": {"sha": "%s"}, "base": {"sha": "%s"}, "merge_commit_sha": "%s"}, "repository": {"full_name": "octo/packs"}}\n' \
    "$pr_head" "$base" "$merge" > "$workflow/event.json"
: > "$commands/output"
podman_ run --rm --ulimit nofile=20000:20000 --ulimit nproc=1024:1024 --network host \
    --workdir /github/workspace -v "$repo/ws":/github/workspace -v "$home":/github/home \
    -v "$workflow":/github/workflow -v "$commands":/github/file_commands \
    -e HOME=/github/home -e RUNNER_TEMP="$temp" -e CI=true -e GITHUB_ACTIONS=true \
    -e GITHUB_WORKSPACE=/github/workspace \
    -e GITHUB_OUTPUT=/github/file_commands/output \
    -e GITHUB_STEP_SUMMARY=/github/file_commands/summary \
    -e GITHUB_EVENT_PATH=/github/workflow/event.json -e GITHUB_EVENT_NAME=pull_request \
    -e GITHUB_API_URL="http://127.0.0.1:$port" -e GITHUB_REPOSITORY=octo/packs \
    -e GITHUB_SHA="$merge" -e GITHUB_REF=refs/pull/7/merge \
    -e INPUT_PATH=packs -e INPUT_TEST=false -e INPUT_UPLOAD=false -e INPUT_SCOPE=all \
    -e INPUT_FAIL-ON=never -e INPUT_ANNOTATIONS=commands -e INPUT_TOKEN=ghs_containerTestToken \
    "$image" ci > "$work/review.log" 2>&1 || true
grep -q "^hippo-packs: review: base ${base:0:7} (HEAD^1, the merge checkout's first parent)$" "$work/review.log" \
    || { cat "$work/review.log"; fail "the base was not read inside the image"; }
echo "review: base ${base:0:7} read inside the image from a depth-2 merge checkout the runner's user owns"
echo "container test: passed"
