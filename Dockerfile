# The hippo-packs GitHub Action built from source: what `runs.image: Dockerfile` builds for
# `@main` and `@<sha>` (docs/action.md, "The image"). Two stages, and every file they copy is in
# a fresh checkout, so Docker's legacy builder (which builds every stage) builds it too:
#
#   build        compiles the release binary from source on a pinned Alpine toolchain, whose
#                native musl target links a static-pie binary; TLS roots are compiled in
#                (webpki-roots), so the final image needs no CA bundle.
#   from-source  the build stage's binary in an empty image.
#
# The release image is release.Dockerfile: the release workflow's static binaries, no compiler.
# The base is pinned by digest (the index digest of the tag, for every platform); Dependabot's
# docker updates (.github/dependabot.yml) move tag and digest together. No USER and no WORKDIR
# in the final stage: GitHub runs the container as root with --workdir /github/workspace.

FROM rust:1.95.0-alpine3.23@sha256:606fd313a0f49743ee2a7bd49a0914bab7deedb12791f3a846a34a4711db7ed2 AS build

WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY src ./src
COPY benches ./benches
COPY tests/fixtures.rs ./tests/fixtures.rs

# Release settings for the image only, so Cargo.toml keeps the defaults for everyone else.
ENV CARGO_PROFILE_RELEASE_LTO=true \
    CARGO_PROFILE_RELEASE_CODEGEN_UNITS=1 \
    CARGO_PROFILE_RELEASE_STRIP=true

RUN cargo build --release --locked \
    && mkdir -p /out/tmp \
    && chmod 1777 /out/tmp \
    && cp target/release/hippo-packs /out/hippo-packs

FROM scratch AS from-source
COPY --from=build /out/tmp /tmp
COPY --from=build /out/hippo-packs /hippo-packs
# Fails the build if the binary is not static (scratch has no loader).
RUN ["/hippo-packs", "--version"]
ENTRYPOINT ["/hippo-packs"]
