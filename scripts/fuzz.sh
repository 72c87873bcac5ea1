#!/usr/bin/env bash
# Runs every Go fuzz target of the module (func FuzzXxx in a _test.go file)
# for FUZZTIME each (default 30s). Go fuzzes one target per invocation, so
# this loops over the packages and their targets; targets are found anew
# each run, so a new one is fuzzed as soon as it exists.
#
#   FUZZTIME=5s scripts/fuzz.sh            # every target
#   scripts/fuzz.sh ./rest ./internal/...  # the targets of some packages
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
trap 'rm -f "$log"' EXIT
failed=()
count=0
for pkg in "${pkgs[@]}"; do
	dir=$("$GO" list -f '{{.Dir}}' "$pkg")
	# Only packages whose tests hold a fuzz target are compiled for listing.
	grep -qs '^func Fuzz' "$dir"/*_test.go || continue
	if ! listed=$("$GO" test -list '^Fuzz' "$pkg"); then
		failed+=("$pkg (its tests do not build)")
		continue
	fi
	mapfile -t targets < <(grep '^Fuzz' <<<"$listed" || true)
	for target in "${targets[@]}"; do
		count=$((count + 1))
		echo "== $pkg $target ($FUZZTIME)"
		corpus="$dir/testdata/fuzz/$target"
		before=$(inputs "$corpus")
		if "$GO" test "$pkg" -run '^$' -fuzz "^${target}\$" -fuzztime "$FUZZTIME" 2>&1 | tee "$log"; then
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
