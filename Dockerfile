# syntax=docker/dockerfile:1
#
# The hippo-packs GitHub Action: one static binary in an empty image (docs/action.md, "The
# image"). Three stages:
#
#   build       compiles the release binary from source on a pinned Alpine toolchain, whose
#               native musl target links a static-pie binary; TLS roots are compiled in
#               (webpki-roots), so the final image needs no CA bundle.
#   prebuilt    the release image: a static binary built outside (the release workflow's
#               musl builds, scripts/container-test.sh's), from dist/<arch>/ in the context:
#               `docker buildx build --target prebuilt --platform linux/amd64,linux/arm64 .`
#   from-source the default target, what `runs.image: Dockerfile` builds: the build stage's
#               binary in the same empty image.
#
# No USER and no WORKDIR in the final stages: GitHub runs the container as root with
# --workdir /github/workspace.

FROM rust:1.95.0-alpine3.23 AS build

WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY src ./src
COPY benches ./benches

# Release settings for the image only, so Cargo.toml keeps the defaults for everyone else.
ENV CARGO_PROFILE_RELEASE_LTO=true \
    CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 \
    CARGO_PROFILE_RELEASE_STRIP=true

RUN cargo build --release --locked \
    && mkdir -p /out/tmp \
    && chmod 1777 /out/tmp \
    && cp target/release/hippo-packs /out/hippo-packs

# The release image: dist/<arch>/ holds `hippo-packs` (static) and an empty `tmp/` (mode 1777,
# where `test` makes its temporary home and workspace). TARGETARCH is amd64 or arm64.
FROM scratch AS prebuilt
ARG TARGETARCH
COPY dist/${TARGETARCH}/ /
ENTRYPOINT ["/hippo-packs"]

# Built from source: the default target.
FROM scratch AS from-source
COPY --from=build /out/tmp /tmp
COPY --from=build /out/hippo-packs /hippo-packs
# Fails the build if the binary is not static (scratch has no loader).
RUN ["/hippo-packs", "--version"]
ENTRYPOINT ["/hippo-packs"]
