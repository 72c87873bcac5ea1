#!/usr/bin/env bash
# Interoperability check: build Quire, seed a throwaway SQLite database, serve
# it on a free loopback port, drive the /v1 REST API with the official
# JavaScript client of the documented API (@gitbook/api, pinned in
# interop/package.json), and audit /graphql against the GraphQL over HTTP
# specification with graphql-http's server audits (pinned there too).
# Exits non-zero on any failure.
#
# Usage (from anywhere): bash interop/run.sh [AREA...]
#   AREA: user, organizations, collections, spaces, sites, content, git, transconv, discussions, orgadmin, search, openapi, pagemodel, errors (default: all)
# Env: INTEROP_KEEP_TMP=1 keeps the temporary directory (database, server log).
#   QUIRE_BIN=PATH runs that quire binary (absolute, or from the
#   repository's root) instead of building one; QUIRE_NPM_READY=1 skips
#   npm ci (the caller ran it; CI does, at its start).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
HERE="$ROOT/interop"
GO="${GO:-go}"

log() { printf 'interop: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

command -v node >/dev/null || die "node is required (Node >= 20)"
command -v npm >/dev/null || die "npm is required"
[ -n "${QUIRE_BIN:-}" ] || command -v "$GO" >/dev/null || die "go is required"
node_major="$(node -p 'process.versions.node.split(".")[0]')"
[ "$node_major" -ge 20 ] || die "Node >= 20 is required (found $(node --version))"

TMP="$(mktemp -d "${TMPDIR:-/tmp}/quire-interop.XXXXXX")"
SERVER_PID=""
LT_PID=""

cleanup() {
	local rc=$?
	if [ -n "$LT_PID" ]; then
		kill -TERM "$LT_PID" 2>/dev/null || true
		wait "$LT_PID" 2>/dev/null || true
	fi
	if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
		kill -TERM "$SERVER_PID" 2>/dev/null || true
		# graceful shutdown is bounded by the server at 20 s; don't wait longer
		for _ in $(seq 1 100); do
			kill -0 "$SERVER_PID" 2>/dev/null || break
			sleep 0.2
		done
		if kill -0 "$SERVER_PID" 2>/dev/null; then
			kill -KILL "$SERVER_PID" 2>/dev/null || true
		fi
		wait "$SERVER_PID" 2>/dev/null || true
	fi
	if [ "$rc" -ne 0 ] && [ -s "$TMP/server.log" ]; then
		log "server log (last 40 lines):"
		tail -n 40 "$TMP/server.log" >&2 || true
	elif [ "$rc" -ne 0 ] && [ -s "$TMP/admin.log" ]; then
		log "admin command log (last 20 lines):"
		tail -n 20 "$TMP/admin.log" >&2 || true
	fi
	if [ "${INTEROP_KEEP_TMP:-}" = 1 ]; then
		log "kept $TMP"
	else
		rm -rf "$TMP"
	fi
	exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# json FIELD.PATH < JSON: print one field of a JSON document (no jq needed).
json() {
	node -e '
		let s = "";
		process.stdin.on("data", (d) => (s += d)).on("end", () => {
			let v = JSON.parse(s);
			for (const k of process.argv[1].split(".")) v = v?.[k];
			if (typeof v !== "string" || v === "") { console.error("missing " + process.argv[1] + " in " + s); process.exit(1); }
			process.stdout.write(v);
		});' "$1"
}

# 1. Build the server, or take $QUIRE_BIN (a path from the repository's
#    root): a binary built once for several checks (CI does).
if [ -n "${QUIRE_BIN:-}" ]; then
	case "$QUIRE_BIN" in
	/*) QUIRE="$QUIRE_BIN" ;;
	*) QUIRE="$ROOT/$QUIRE_BIN" ;;
	esac
	[ -f "$QUIRE" ] && [ -x "$QUIRE" ] || die "QUIRE_BIN $QUIRE is not an executable file"
	log "using $QUIRE"
else
	log "building quire"
	(cd "$ROOT" && timeout 900 "$GO" build -o "$TMP/quire" ./cmd/quire)
	QUIRE="$TMP/quire"
fi
DB="sqlite:$TMP/q.db"

# 2. Seed: an organization with an admin, a second organization where the
#    same user is admin (transfer target), and a reader and a reviewer in
#    the first one.
log "creating and bootstrapping the database"
timeout 60 "$QUIRE" migrate --database-url "$DB" 2>>"$TMP/admin.log" >/dev/null
boot1="$(timeout 60 "$QUIRE" admin bootstrap --database-url "$DB" --org "Interop" --email interop@example.com 2>>"$TMP/admin.log")"
boot2="$(timeout 60 "$QUIRE" admin bootstrap --database-url "$DB" --org "Interop Transfer" --email interop@example.com 2>>"$TMP/admin.log")"
QUIRE_ORG_ID="$(json organization.id <<<"$boot1")"
QUIRE_USER_ID="$(json user.id <<<"$boot1")"
QUIRE_TOKEN="$(json token <<<"$boot1")"
QUIRE_ORG2_ID="$(json organization.id <<<"$boot2")"
[ "$(json user.id <<<"$boot2")" = "$QUIRE_USER_ID" ] || die "second bootstrap did not reuse the user"
reader="$(timeout 60 "$QUIRE" admin user create --database-url "$DB" --email r@example.com --org "$QUIRE_ORG_ID" --role read 2>>"$TMP/admin.log")"
QUIRE_READER_ID="$(json user.id <<<"$reader")"
QUIRE_READER_TOKEN="$(json token <<<"$reader")"
reviewer="$(timeout 60 "$QUIRE" admin user create --database-url "$DB" --email rv@example.com --org "$QUIRE_ORG_ID" --role review 2>>"$TMP/admin.log")"
QUIRE_REVIEWER_ID="$(json user.id <<<"$reviewer")"
QUIRE_REVIEWER_TOKEN="$(json token <<<"$reviewer")"

# 3. A LibreTranslate-compatible server for translation runs, then Quire,
#    on free loopback ports; wait for /healthz.
free_port() { node -e 'const s = require("net").createServer(); s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });'; }
LT_PORT="$(free_port)"
node "$HERE/lib/fake-libretranslate.mjs" "$LT_PORT" >"$TMP/libretranslate.log" 2>&1 &
LT_PID=$!
PORT="$(node -e 'const s = require("net").createServer(); s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });')"
QUIRE_URL="http://127.0.0.1:$PORT"
log "serving on $QUIRE_URL"
# The git area imports from and exports to local repositories there;
# --openapi-fetch-private: the openapi area serves its specification files
# on loopback, which Quire refuses to fetch from by default.
QUIRE_GIT_DIR="$TMP/git"
mkdir -p "$QUIRE_GIT_DIR"
QUIRE_TRANSLATE_URL="http://127.0.0.1:$LT_PORT" "$QUIRE" serve --addr "127.0.0.1:$PORT" --database-url "$DB" --git-file-roots "$QUIRE_GIT_DIR" --openapi-fetch-private >"$TMP/server.log" 2>&1 &
SERVER_PID=$!
healthy=""
for _ in $(seq 1 150); do
	kill -0 "$SERVER_PID" 2>/dev/null || die "the server exited during start-up"
	if node -e '
		fetch(process.argv[1] + "/healthz", { signal: AbortSignal.timeout(1000) })
			.then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1));' "$QUIRE_URL"; then
		healthy=1
		break
	fi
	sleep 0.2
done
[ -n "$healthy" ] || die "the server did not become healthy within 30 s"

# 4. Install the pinned client when node_modules is missing or stale,
#    unless the caller installed it (QUIRE_NPM_READY=1: CI runs every
#    npm ci at its start, while Go compiles).
if [ "${QUIRE_NPM_READY:-}" = 1 ]; then
	[ -d "$HERE/node_modules/@gitbook/api" ] && [ -d "$HERE/node_modules/graphql-http" ] || die "QUIRE_NPM_READY=1, but $HERE/node_modules lacks the pinned packages"
else
	stamp="$HERE/node_modules/.interop-lock"
	want="$(cksum <"$HERE/package-lock.json")"
	if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ] || [ ! -d "$HERE/node_modules/@gitbook/api" ] || [ ! -d "$HERE/node_modules/graphql-http" ]; then
		log "npm ci"
		(cd "$HERE" && timeout 600 npm ci --no-audit --no-fund --loglevel=error)
		printf '%s' "$want" >"$stamp"
	fi
fi

# 5. Run the client against the server.
log "running interop/test.mjs"
export QUIRE_URL QUIRE_TOKEN QUIRE_READER_TOKEN QUIRE_ORG_ID QUIRE_ORG2_ID QUIRE_USER_ID QUIRE_READER_ID QUIRE_GIT_DIR
export QUIRE_REVIEWER_TOKEN QUIRE_REVIEWER_ID
(cd "$HERE" && timeout 300 node test.mjs "$@")

# 6. Audit /graphql with graphql-http: any warning or error fails.
log "running interop/graphql-audit.mjs"
(cd "$HERE" && timeout 120 node graphql-audit.mjs)
