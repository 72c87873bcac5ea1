#!/usr/bin/env bash
# Check the quire container image without running a container (a build
# machine may build images but not run them): build it (scripts/image.sh),
# check its configuration (user, volume, environment, port, entrypoint),
# export its file system, check the files in it (a static /quire, the CA
# certificates, /data owned by the user, /tmp writable by all), then run
# the exported /quire on the host: "quire version", and "quire serve" with
# the image's environment (but a loopback address and a temporary
# database) until /readyz answers 200, then stop it with SIGTERM and expect
# a clean exit. Every step is bounded in time; any failure exits non-zero.
#
# Usage: scripts/image-test.sh (make test-image)
# Env: as scripts/image.sh; IMAGE_TEST_KEEP_TMP=1 keeps the temporary
#   directory (the exported file system, the server log).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

GO="${GO:-go}"
: "${VERSION:?VERSION is not set (run through make test-image)}"
: "${COMMIT:?COMMIT is not set (run through make test-image)}"
IMAGE="${IMAGE:-quire:$VERSION}"
read -r -a podman <<<"${PODMAN:-podman --storage-driver vfs}"
log() { printf 'image-test: %s\n' "$*" >&2; }
die() { log "FAIL $*"; exit 1; }
ok() { log "ok   $*"; }

command -v curl >/dev/null || die "curl is required"
[ "$(uname -s)" = Linux ] || die "the image's binary runs on Linux only"

TMP="$(mktemp -d "${TMPDIR:-/tmp}/quire-image-test.XXXXXX")"
CONTAINER=""
SERVER_PID=""
cleanup() {
	local rc=$?
	if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
		kill -KILL "$SERVER_PID" 2>/dev/null || true
		wait "$SERVER_PID" 2>/dev/null || true
	fi
	if [ -n "$CONTAINER" ]; then
		timeout 60 "${podman[@]}" rm --force "$CONTAINER" >/dev/null 2>&1 || true
	fi
	if [ "$rc" -ne 0 ] && [ -s "$TMP/server.log" ]; then
		log "server log (last 30 lines):"
		tail -n 30 "$TMP/server.log" >&2 || true
	fi
	if [ "${IMAGE_TEST_KEEP_TMP:-}" = 1 ]; then
		log "kept $TMP"
	else
		rm -rf "$TMP"
	fi
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# 1. Build.
timeout 900 scripts/image.sh

# 2. The image's configuration.
inspect() { timeout 60 "${podman[@]}" image inspect --format "$1" "$IMAGE"; }
want() { # want WHAT GOT EXPECTED
	[ "$2" = "$3" ] || die "$1: got \"$2\", want \"$3\""
	ok "$1: $2"
}
want user "$(inspect '{{.Config.User}}')" "65532:65532"
want entrypoint "$(inspect '{{json .Config.Entrypoint}}')" '["/quire"]'
want cmd "$(inspect '{{json .Config.Cmd}}')" '["serve"]'
want volumes "$(inspect '{{range $k, $v := .Config.Volumes}}{{$k}} {{end}}')" "/data "
want ports "$(inspect '{{range $k, $v := .Config.ExposedPorts}}{{$k}} {{end}}')" "8080/tcp "
env="$(inspect '{{range .Config.Env}}{{println .}}{{end}}')"
for e in QUIRE_DATABASE_URL=sqlite:/data/quire.db QUIRE_ADDR=0.0.0.0:8080; do
	grep -qxF "$e" <<<"$env" || die "environment lacks $e (has: $(tr '\n' ' ' <<<"$env"))"
	ok "environment: $e"
done
want "label version" "$(inspect '{{index .Config.Labels "org.opencontainers.image.version"}}')" "$VERSION"
want architecture "$(inspect '{{.Os}}/{{.Architecture}}')" "linux/$("$GO" env GOARCH)"

# 3. Its files: export the file system of a container created (not
#    started) from it.
CONTAINER="quire-image-test-$$"
timeout 60 "${podman[@]}" create --name "$CONTAINER" "$IMAGE" >/dev/null
timeout 120 "${podman[@]}" export --output "$TMP/fs.tar" "$CONTAINER"
timeout 60 "${podman[@]}" rm "$CONTAINER" >/dev/null
CONTAINER=""
listing="$(tar -tvf "$TMP/fs.tar")"
# entry PATH: the "mode owner" of one entry of the listing.
entry() {
	awk -v p="$1" '{ n = $6; sub(/^\.\//, "", n); sub(/\/$/, "", n) } n == p { print $1, $2; exit }' <<<"$listing"
}
want "/data" "$(entry data)" "drwxr-xr-x 65532/65532"
want "/tmp" "$(entry tmp)" "drwxrwxrwt 0/0"
want "/quire" "$(entry quire)" "-rwxr-xr-x 0/0"
want "/etc/ssl/certs/ca-certificates.crt" "$(entry etc/ssl/certs/ca-certificates.crt)" "-rw-r--r-- 0/0"
mkdir -p "$TMP/fs"
tar -xf "$TMP/fs.tar" -C "$TMP/fs" quire etc/ssl/certs/ca-certificates.crt
cmp -s "$TMP/fs/etc/ssl/certs/ca-certificates.crt" dist/image/rootfs/etc/ssl/certs/ca-certificates.crt || die "the image's CA certificates differ from the staged ones"
ok "CA certificates: $(grep -c 'BEGIN CERTIFICATE' "$TMP/fs/etc/ssl/certs/ca-certificates.crt") certificates"
QUIRE="$TMP/fs/quire"

# 4. The binary: static, built as released.
buildinfo="$(timeout 60 "$GO" version -m "$QUIRE")"
for s in "build	CGO_ENABLED=0" "build	-trimpath=true"; do
	grep -qF "$s" <<<"$buildinfo" || die "/quire was not built with ${s#build	}"
done
ok "/quire built with CGO_ENABLED=0 -trimpath"
if command -v file >/dev/null; then
	file -L "$QUIRE" | grep -q "statically linked" || die "/quire is not statically linked: $(file -L "$QUIRE")"
	ok "/quire is statically linked"
fi
version="$(timeout 10 "$QUIRE" version)" || die "quire version failed"
case "$version" in
*"$VERSION"*"$COMMIT"*) ok "quire version: $version" ;;
*) die "quire version printed \"$version\", want $VERSION and $COMMIT in it" ;;
esac

# 5. Serve with the image's environment, on a free loopback port (port 0,
#    read back from the log) and a database in a temporary /data.
mkdir -p "$TMP/data"
: >"$TMP/server.log"
(
	cd "$TMP/data"
	exec env -i PATH=/nonexistent TMPDIR="$TMP" QUIRE_ADDR=127.0.0.1:0 \
		QUIRE_DATABASE_URL="sqlite:$TMP/data/quire.db" "$QUIRE" serve
) >>"$TMP/server.log" 2>&1 &
SERVER_PID=$!
addr=""
for _ in $(seq 1 300); do
	kill -0 "$SERVER_PID" 2>/dev/null || die "quire serve exited during start-up"
	addr="$(sed -n 's/.*"msg":"listening","addr":"\([^"]*\)".*/\1/p' "$TMP/server.log" | head -n 1)"
	[ -n "$addr" ] && break
	sleep 0.1
done
[ -n "$addr" ] || die "quire serve logged no listening address within 30 s"
ok "quire serve listening on $addr"
for path in /healthz /readyz; do
	code="$(curl -s -o "$TMP/body" -w '%{http_code}' --max-time 10 "http://$addr$path")" || true
	[ "$code" = 200 ] || die "GET $path answered ${code:-nothing}: $(cat "$TMP/body" 2>/dev/null)"
	ok "GET $path: $code $(cat "$TMP/body")"
done
[ -s "$TMP/data/quire.db" ] || die "no database at $TMP/data/quire.db"
kill -TERM "$SERVER_PID"
rc=""
for _ in $(seq 1 250); do
	if ! kill -0 "$SERVER_PID" 2>/dev/null; then
		rc=0
		wait "$SERVER_PID" || rc=$?
		break
	fi
	sleep 0.1
done
[ -n "$rc" ] || die "quire serve did not stop within 25 s of SIGTERM"
SERVER_PID=""
[ "$rc" = 0 ] || die "quire serve exited $rc after SIGTERM"
ok "quire serve stopped cleanly"
log "PASS $IMAGE"
