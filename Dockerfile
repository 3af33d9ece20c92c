# syntax=docker/dockerfile:1
#
# The hippo-packs GitHub Action: one static binary in an empty image.
# Build stage: a pinned toolchain on Alpine, whose native target (x86_64- or
# aarch64-unknown-linux-musl) links a static-pie binary; TLS roots are compiled in
# (webpki-roots), so the final image needs no CA bundle.
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

# Final stage: nothing but the binary and an empty /tmp (`test` makes its temporary home and
# workspace there). No USER and no WORKDIR: GitHub runs the container as root with
# --workdir /github/workspace.
FROM scratch
COPY --from=build /out/tmp /tmp
COPY --from=build /out/hippo-packs /hippo-packs
# Fails the build if the binary is not static (scratch has no loader).
RUN ["/hippo-packs", "--version"]
ENTRYPOINT ["/hippo-packs"]
