#!/usr/bin/env bash
# Runs every Go fuzz target of the module (func FuzzXxx in a _test.go file)
# for FUZZTIME each (default 30s). Go fuzzes one target per invocation, so
# this loops over the packages and their targets; targets are found anew
# each run, so a new one is fuzzed as soon as it exists.
#
#   FUZZTIME=5s scripts/fuzz.sh            # every target
#   scripts/fuzz.sh ./rest ./internal/...  # the targets of some packages
#
# Each package's test binary is built once, with fuzzing instrumentation
# (go test -c -fuzz), and run once per target: go test -fuzz would link it
# anew for every target, and rest's binary alone takes a long link.
#
# A failure leaves the input that found it in the package's
# testdata/fuzz/<Target>/ (commit it: plain go test then replays it) and
# makes the script exit 1 after the other targets have run.
set -euo pipefail

cd "$(dirname "$0")/.."
GO=${GO:-go}
FUZZTIME=${FUZZTIME:-30s}

if [ "$#" -eq 0 ]; then
	set -- ./...
fi
mapfile -t pkgs < <("$GO" list -f '{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}{{end}}' "$@" | sed '/^$/d')

# inputs counts the inputs saved for a target.
inputs() {
	if [ -d "$1" ]; then
		find "$1" -type f | wc -l
	else
		echo 0
	fi
}

log=$(mktemp)
bindir=$(mktemp -d)
trap 'rm -f "$log"; rm -rf "$bindir"' EXIT
# Where go test -fuzz keeps the inputs it found interesting, so that runs
# through this script and through go test build on one another.
fuzzcache="$("$GO" env GOCACHE)/fuzz"
failed=()
count=0
for pkg in "${pkgs[@]}"; do
	dir=$("$GO" list -f '{{.Dir}}' "$pkg")
	# Targets are read from the test files rather than listed by the test
	# binary: listing runs TestMain, which starts PostgreSQL in some packages.
	mapfile -t targets < <(sed -n 's/^func \(Fuzz[A-Za-z0-9_]*\)(.*/\1/p' "$dir"/*_test.go 2>/dev/null | sort -u)
	[ "${#targets[@]}" -gt 0 ] || continue
	bin="$bindir/$(basename "$dir").$count.test"
	if ! "$GO" test -c -fuzz '^Fuzz' -o "$bin" "$pkg"; then
		failed+=("$pkg (its tests do not build)")
		continue
	fi
	for target in "${targets[@]}"; do
		count=$((count + 1))
		echo "== $pkg $target ($FUZZTIME)"
		corpus="$dir/testdata/fuzz/$target"
		before=$(inputs "$corpus")
		# Run in the package's directory, as go test does: the corpus is
		# read from and failures written to testdata/fuzz there.
		if (cd "$dir" && "$bin" -test.run '^$' -test.fuzz "^${target}\$" -test.fuzztime "$FUZZTIME" \
			-test.fuzzcachedir "$fuzzcache/$pkg" -test.paniconexit0 -test.timeout 10m) 2>&1 | tee "$log"; then
			continue
		fi
		after=$(inputs "$corpus")
		# Go's fuzzing coordinator may report its own -fuzztime deadline as
		# a failure, with no input written (go.dev/issue/75804, fixed in
		# Go 1.27): that is no finding.
		if [ "$after" -eq "$before" ] && grep -q '^    context deadline exceeded$' "$log"; then
			echo "== $pkg $target: the fuzzing deadline was reported as a failure, without an input; not a finding"
			continue
		fi
		failed+=("$pkg $target")
	done
done

echo "fuzzed $count targets for $FUZZTIME each"
if [ "${#failed[@]}" -gt 0 ]; then
	printf 'FAILED: %s\n' "${failed[@]}" >&2
	exit 1
fi
