package server

import (
	"runtime/debug"
	"testing"
)

func TestTuneGC(t *testing.T) {
	prev := debug.SetGCPercent(100)
	defer debug.SetGCPercent(prev)

	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	if got := TuneGC(getenv); got != DefaultGCPercent {
		t.Errorf("without GOGC: %d, want %d", got, DefaultGCPercent)
	}
	if got := debug.SetGCPercent(100); got != DefaultGCPercent {
		t.Errorf("runtime GC percent %d after TuneGC, want %d", got, DefaultGCPercent)
	}

	// A GOGC set by the operator wins and is left to the runtime.
	env["GOGC"] = "150"
	if got := TuneGC(getenv); got != 150 {
		t.Errorf("GOGC=150: %d", got)
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("TuneGC changed the runtime's percent to %d with GOGC set", got)
	}
	env["GOGC"] = "off"
	if got := TuneGC(getenv); got != -1 {
		t.Errorf("GOGC=off: %d, want -1", got)
	}
}
