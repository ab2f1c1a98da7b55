#!/usr/bin/env bash
# Builds berth's container image with podman: the base image first when it is missing
# (deploy/image/build-base.sh), then deploy/Containerfile from the repository -> TAG.
#
# Usage (as root, from anywhere):
#   deploy/image/build.sh [TAG]          TAG defaults to localhost/berth:<package.json version>
# Environment:
#   BERTH_BASE_TAG   the base image (default localhost/berth-base:bookworm-node20)
#   PODMAN_RUNTIME   OCI runtime for the RUN steps (default runc when installed, else podman's own)
#   BERTH_BUILD_CA_FILE  CA certificates (PEM) npm ci in the build must trust besides Node's own,
#                    for a registry reached through a TLS-inspecting proxy; given to that one step
#                    as the build secret build_ca (default: $NODE_EXTRA_CA_CERTS when set)
#   CONTAINERS_CONF  podman's containers.conf (default: deploy/image/containers.conf when the
#                    runtime is runc, whose default ulimits some hosts refuse; see that file)
# Prints the seconds each part took and the image's size on its last line:
#   build: TAG base_s=N build_s=N size_mb=N
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
VERSION="$(node -p "require('$ROOT/package.json').version")"
TAG="${1:-localhost/berth:$VERSION}"
BASE="${BERTH_BASE_TAG:-localhost/berth-base:bookworm-node20}"

RUNTIME="${PODMAN_RUNTIME-}"
if [ -z "$RUNTIME" ] && command -v runc >/dev/null; then
  RUNTIME=runc
fi
if [ "$RUNTIME" = runc ] && [ -z "${CONTAINERS_CONF-}" ]; then
  export CONTAINERS_CONF="$HERE/containers.conf"
fi
PODMAN=(podman)
[ -n "$RUNTIME" ] && PODMAN+=(--runtime "$RUNTIME")

SECRETS=()
CA_FILE="${BERTH_BUILD_CA_FILE:-${NODE_EXTRA_CA_CERTS-}}"
if [ -n "$CA_FILE" ]; then
  [ -r "$CA_FILE" ] || { echo "build: CA file $CA_FILE not readable" >&2; exit 1; }
  SECRETS=(--secret "id=build_ca,src=$CA_FILE")
fi

started=$SECONDS
"$HERE/build-base.sh" "$BASE"
base_s=$((SECONDS - started))

# The build stage's last image (LABEL io.berth.stage=build) is tagged BUILD_TAG: it holds the
# `npm ci` layer the next build reuses. Images this script tagged before and no tag names any more
# are removed with their untagged layers, so rebuilding does not pile up ~1.5 GB each time;
# podman refuses to remove one a container still uses, and it stays.
BUILD_TAG="${TAG%:*}-build:${TAG##*:}"
old_id="$(podman image inspect --format '{{.Id}}' "$TAG" 2>/dev/null || true)"

started=$SECONDS
# --format docker: the OCI image format has no HEALTHCHECK; --network host: npm ci reaches the
# npm registry (and any proxy in the environment) as the host does.
"${PODMAN[@]}" build --format docker --network host --build-arg "BASE=$BASE" "${SECRETS[@]}" \
  --label "org.opencontainers.image.version=$VERSION" \
  -f "$ROOT/deploy/Containerfile" -t "$TAG" "$ROOT"
build_s=$((SECONDS - started))

newest_build_stage="$(podman images --quiet --no-trunc --sort created \
  --filter dangling=true --filter label=io.berth.stage=build | head -1)"
if [ -n "$newest_build_stage" ]; then
  podman tag "$newest_build_stage" "$BUILD_TAG"
fi
for id in $old_id $(podman images --quiet --no-trunc --filter dangling=true \
  --filter label=io.berth.stage=build); do
  if [ "$(podman image inspect --format '{{len .RepoTags}}' "$id" 2>/dev/null)" = 0 ]; then
    podman rmi "$id" >/dev/null 2>&1 || true
  fi
done

size_b="$(podman image inspect --format '{{.Size}}' "$TAG")"
echo "build: $TAG base_s=$base_s build_s=$build_s size_mb=$((size_b / 1000000))"
