#!/usr/bin/env bash
# Build the quire container image (Containerfile) for the host's
# architecture: the linux binary as scripts/release.sh builds it, staged in
# dist/image/ with the CA certificates, an empty /data and an empty /tmp.
#
# Usage: scripts/image.sh (make image)
# Env: VERSION, COMMIT, DATE (from make), IMAGE (default quire:$VERSION),
#   PODMAN (default "podman --storage-driver vfs": no overlay or fuse needed
#   on the build machine), CA_CERTS (default /etc/ssl/certs/ca-certificates.crt),
#   GO (default go).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

GO="${GO:-go}"
: "${VERSION:?VERSION is not set (run through make image)}"
: "${COMMIT:?COMMIT is not set (run through make image)}"
: "${DATE:?DATE is not set (run through make image)}"
IMAGE="${IMAGE:-quire:$VERSION}"
read -r -a podman <<<"${PODMAN:-podman --storage-driver vfs}"
CA_CERTS="${CA_CERTS:-/etc/ssl/certs/ca-certificates.crt}"
log() { printf 'image: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

command -v "${podman[0]}" >/dev/null || die "${podman[0]} is required (apt-get install -y podman)"
[ -s "$CA_CERTS" ] || die "$CA_CERTS not found (apt-get install -y ca-certificates)"

arch="$("$GO" env GOARCH)"
scripts/release.sh --no-sums "linux/$arch"

stage=dist/image
rm -rf "$stage"
mkdir -p "$stage/rootfs/etc/ssl/certs" "$stage/rootfs/tmp" "$stage/data"
cp "dist/quire-linux-$arch" "$stage/rootfs/quire"
cp "$CA_CERTS" "$stage/rootfs/etc/ssl/certs/ca-certificates.crt"
chmod 0755 "$stage/rootfs/quire" "$stage/rootfs/etc" "$stage/rootfs/etc/ssl" "$stage/rootfs/etc/ssl/certs" "$stage/data"
chmod 0644 "$stage/rootfs/etc/ssl/certs/ca-certificates.crt"
chmod 1777 "$stage/rootfs/tmp"

# With SOURCE_DATE_EPOCH set, the image's creation time and its files'
# times are that instant: the same sources give the same image.
stamp=()
if [ -n "${SOURCE_DATE_EPOCH:-}" ]; then
	stamp=(--timestamp "$SOURCE_DATE_EPOCH")
fi
# The image this tag named before, removed once the tag moves on (unless
# another tag or a container still holds it), so that rebuilding the same
# version does not pile up copies (the vfs driver stores each in full).
old="$("${podman[@]}" image inspect --format '{{.Id}}' "$IMAGE" 2>/dev/null || true)"
log "building $IMAGE"
"${podman[@]}" build --layers=false --file Containerfile --tag "$IMAGE" "${stamp[@]}" \
	--build-arg "VERSION=$VERSION" --build-arg "COMMIT=$COMMIT" --build-arg "DATE=$DATE" .
new="$("${podman[@]}" image inspect --format '{{.Id}}' "$IMAGE")"
if [ -n "$old" ] && [ "$old" != "$new" ]; then
	"${podman[@]}" image rm "$old" >/dev/null 2>&1 || true
fi
log "built $IMAGE ($new)"
