package server

import (
	"runtime/debug"
	"strconv"
	"strings"
)

// DefaultGCPercent is the garbage collector's target (GOGC) the server
// runs with when the environment sets none. Quire's requests allocate many
// short-lived objects (a GraphQL answer is built field by field) over a
// live heap of a few tens of megabytes: at Go's default of 100 the
// collector runs every few requests and takes a large share of the CPU.
// At 200 it runs a third as often, for a heap that may grow to three times
// the live data. (400 served a read of a kept site about 5 % faster for
// 40 % more memory: see docs/benchmarks.md.) GOMEMLIMIT, when set, still
// bounds the heap.
const DefaultGCPercent = 200

// TuneGC applies DefaultGCPercent unless GOGC is set (getenv is
// os.Getenv or a test's stand-in), and returns the percentage in effect
// (-1 when GOGC=off).
func TuneGC(getenv func(string) string) int {
	v := strings.TrimSpace(getenv("GOGC"))
	if v == "" {
		debug.SetGCPercent(DefaultGCPercent)
		return DefaultGCPercent
	}
	if strings.EqualFold(v, "off") {
		return -1
	}
	if n, err := strconv.Atoi(v); err == nil {
		return n
	}
	return 100 // the runtime ignores a GOGC it cannot read
}
