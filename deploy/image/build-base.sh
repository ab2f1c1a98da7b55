#!/usr/bin/env bash
# Builds the base image deploy/Containerfile starts from (both stages):
#   Debian bookworm (debootstrap --variant=minbase) + ca-certificates + the Node.js 20 (and npm)
#   of the machine running this script, imported as localhost/berth-base:bookworm-node20.
#
# Why not FROM node:20-slim: the build and test machines reach the Debian mirror and the npm
# registry but no image registry, so the base is made from Debian packages. Debian bookworm's own
# nodejs is 18, older than berth's engines (>= 20.19); the Node.js binary copied in is the one
# the test suite runs on, so the image runs the exact Node the tests passed with.
#
# Usage (as root; needs debootstrap, podman, node and npm on PATH):
#   deploy/image/build-base.sh [TAG]
# Idempotent: does nothing when the tag already exists (`podman image rm TAG` to rebuild).
# Environment: DEBIAN_MIRROR (default http://deb.debian.org/debian), DEBIAN_SECURITY_MIRROR
# (default http://deb.debian.org/debian-security), TMPDIR (where the root file system is
# assembled, ~250 MB; removed afterwards).
set -euo pipefail

TAG="${1:-${BERTH_BASE_TAG:-localhost/berth-base:bookworm-node20}}"
MIRROR="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
SECURITY_MIRROR="${DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security}"
SUITE=bookworm

if podman image exists "$TAG"; then
  echo "build-base: $TAG exists, not rebuilt"
  exit 0
fi

die() {
  echo "build-base: $*" >&2
  exit 1
}
[ "$(id -u)" -eq 0 ] || die "debootstrap needs root"
for cmd in debootstrap podman node npm tar; do
  command -v "$cmd" >/dev/null || die "$cmd not found on PATH"
done

NODE_BIN="$(readlink -f "$(command -v node)")"
NODE_VERSION="$("$NODE_BIN" --version)"
case "$NODE_VERSION" in
  v20.*) ;;
  *) die "node on PATH is $NODE_VERSION; the image needs Node.js 20 (package.json engines)" ;;
esac
# npm is a JavaScript package beside node: .../lib/node_modules/npm/bin/npm-cli.js.
NPM_DIR="$(cd "$(dirname "$(readlink -f "$(command -v npm)")")/.." && pwd)"
[ -f "$NPM_DIR/package.json" ] && [ -f "$NPM_DIR/bin/npm-cli.js" ] || die "npm's package not found at $NPM_DIR"
NPM_VERSION="$(node -p "require('$NPM_DIR/package.json').version")"

WORK="$(mktemp -d "${TMPDIR:-/var/tmp}/berth-base.XXXXXX")"
ROOTFS="$WORK/rootfs"
cleanup() {
  # debootstrap mounts /proc and /sys inside while it runs; never delete through a mount.
  if command -v findmnt >/dev/null; then
    findmnt -rn -o TARGET | grep -F "$ROOTFS/" | sort -r | xargs -r -n1 umount -l || true
  fi
  rm -rf --one-file-system "$WORK"
}
trap cleanup EXIT

echo "build-base: debootstrap $SUITE from $MIRROR into $ROOTFS"
debootstrap --variant=minbase --include=ca-certificates "$SUITE" "$ROOTFS" "$MIRROR" \
  >"$WORK/debootstrap.log" 2>&1 || {
  tail -30 "$WORK/debootstrap.log" >&2
  die "debootstrap failed"
}

# Debian's security and point-release updates published since the release, so that the base is
# current on the day it is built (rebuild it to take later ones).
echo "build-base: applying $SUITE-updates and $SUITE-security"
printf 'deb %s %s main\n' "$MIRROR" "$SUITE" "$MIRROR" "$SUITE-updates" \
  "$SECURITY_MIRROR" "$SUITE-security" >"$ROOTFS/etc/apt/sources.list"
mount -t proc proc "$ROOTFS/proc"
chroot "$ROOTFS" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive \
  sh -c 'apt-get -qq update && apt-get -qq -y upgrade' >"$WORK/upgrade.log" 2>&1 || {
  tail -30 "$WORK/upgrade.log" >&2
  die "apt-get upgrade in the root file system failed"
}
umount "$ROOTFS/proc"

echo "build-base: adding node $NODE_VERSION ($NODE_BIN) and npm $NPM_VERSION"
install -D -m 0755 "$NODE_BIN" "$ROOTFS/usr/local/bin/node"
mkdir -p "$ROOTFS/usr/local/lib/node_modules"
cp -a "$NPM_DIR" "$ROOTFS/usr/local/lib/node_modules/npm"
rm -rf "$ROOTFS/usr/local/lib/node_modules/npm/docs" "$ROOTFS/usr/local/lib/node_modules/npm/man"
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$ROOTFS/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$ROOTFS/usr/local/bin/npx"

# The binary must run on the image's own libraries (glibc, libstdc++), not only on this host's.
CHROOT_ENV=(env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root)
got="$(chroot "$ROOTFS" "${CHROOT_ENV[@]}" node --version)"
[ "$got" = "$NODE_VERSION" ] || die "node in the root file system printed '$got'"
got="$(chroot "$ROOTFS" "${CHROOT_ENV[@]}" npm --version)"
[ "$got" = "$NPM_VERSION" ] || die "npm in the root file system printed '$got'"

# What a container never needs: package lists and caches, manuals (license texts stay).
chroot "$ROOTFS" "${CHROOT_ENV[@]}" apt-get clean
rm -rf "$ROOTFS"/var/lib/apt/lists/* "$ROOTFS"/var/cache/apt/*.bin "$ROOTFS"/var/log/*.log \
  "$ROOTFS"/usr/share/man/* "$ROOTFS"/usr/share/info/* "$ROOTFS"/usr/share/locale/*
# debootstrap copied this machine's resolver configuration; the container engine provides one.
: >"$ROOTFS/etc/resolv.conf"
find "$ROOTFS/usr/share/doc" -mindepth 2 ! -name copyright ! -type d -delete 2>/dev/null || true

echo "build-base: importing $(du -sh --one-file-system "$ROOTFS" | cut -f1) as $TAG"
tar --numeric-owner -C "$ROOTFS" -c . | podman import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["/bin/bash"]' \
  --change "LABEL org.opencontainers.image.description=\"Debian $SUITE minbase, Node.js $NODE_VERSION, npm $NPM_VERSION\"" \
  --message "debootstrap $SUITE $MIRROR + node $NODE_VERSION" \
  --quiet - "$TAG" >/dev/null
echo "build-base: $TAG built in $SECONDS s"
