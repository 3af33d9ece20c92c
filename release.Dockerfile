# The release image (docs/action.md, "Releases"): a static binary built outside, in an empty
# image; no compiler runs and no base image is pulled. Its build context is the folder dist/,
# as the release workflow and scripts/container-test.sh stage it, never the checkout:
#
#   dist/<arch>/hippo-packs   the static binary (musl) for amd64 or arm64
#   dist/<arch>/tmp/          empty, mode 1777: where `test` makes its temporary home
#
#   docker buildx build --file release.Dockerfile --platform linux/amd64,linux/arm64 dist
#
# TARGETARCH (amd64, arm64) is set by the builder for each platform. No USER and no WORKDIR:
# GitHub runs the container as root with --workdir /github/workspace.

FROM scratch
ARG TARGETARCH
COPY ${TARGETARCH}/ /
ENTRYPOINT ["/hippo-packs"]
