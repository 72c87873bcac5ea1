#!/usr/bin/env bash
# Release binaries of quire: static (no cgo), without build machine paths
# (-trimpath), stripped (-s -w), stamped with the version, the commit and the
# build time, into dist/quire-<os>-<arch>, and dist/SHA256SUMS over them.
#
# Usage: scripts/release.sh [--no-sums] [OS/ARCH...]
#   With no OS/ARCH, every release target (RELEASE_TARGETS, default
#   linux/amd64 linux/arm64 darwin/arm64) is built, the dist/ binaries of
#   an earlier release are removed first, and SHA256SUMS is written.
#   With OS/ARCH arguments only those are built, and SHA256SUMS is left
#   alone (make release-host and make image build this way). --no-sums
#   leaves it alone in every case.
# Env: VERSION, COMMIT, DATE (make computes them; see the Makefile),
#   GO (default go), DIST (default dist).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

GO="${GO:-go}"
DIST="${DIST:-dist}"
log() { printf 'release: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

sums=auto
if [ "${1:-}" = "--no-sums" ]; then
	sums=no
	shift
fi
if [ "$#" -eq 0 ]; then
	# shellcheck disable=SC2206 # a space-separated list, split on purpose
	targets=(${RELEASE_TARGETS:-linux/amd64 linux/arm64 darwin/arm64})
	[ "$sums" = auto ] && sums=yes
	full=1
else
	targets=("$@")
	[ "$sums" = auto ] && sums=no
	full=""
fi

: "${VERSION:?VERSION is not set (run through make release)}"
: "${COMMIT:?COMMIT is not set (run through make release)}"
: "${DATE:?DATE is not set (run through make release)}"
# The stamps land in -ldflags, which splits on spaces.
for v in "$VERSION" "$COMMIT" "$DATE"; do
	case "$v" in *[[:space:]\'\"]*) die "stamp \"$v\" holds a space or a quote" ;; esac
done

mkdir -p "$DIST"
if [ -n "$full" ]; then
	rm -f "$DIST"/quire-* "$DIST/SHA256SUMS"
fi

ldflags="-s -w -X main.version=$VERSION -X main.commit=$COMMIT -X main.date=$DATE"
built=()
for t in "${targets[@]}"; do
	os="${t%/*}"
	arch="${t#*/}"
	[ -n "$os" ] && [ -n "$arch" ] && [ "$os/$arch" = "$t" ] || die "target \"$t\" is not OS/ARCH"
	out="$DIST/quire-$os-$arch"
	log "building $out ($VERSION)"
	CGO_ENABLED=0 GOOS="$os" GOARCH="$arch" "$GO" build -trimpath -ldflags "$ldflags" -o "$out" ./cmd/quire
	built+=("quire-$os-$arch")
done

if [ "$sums" = yes ]; then
	# Names relative to dist/, so that "sha256sum -c SHA256SUMS" checks them
	# there; sorted, so that the same binaries give the same file.
	if command -v sha256sum >/dev/null 2>&1; then
		sum=(sha256sum)
	else
		sum=(shasum -a 256) # macOS
	fi
	(cd "$DIST" && "${sum[@]}" $(printf '%s\n' "${built[@]}" | LC_ALL=C sort) >SHA256SUMS)
	log "wrote $DIST/SHA256SUMS"
fi
