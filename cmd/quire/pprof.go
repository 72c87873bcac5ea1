//go:build pprof

package main

import (
	"net/http"
	_ "net/http/pprof" // registers /debug/pprof on http.DefaultServeMux
	"os"
)

// A binary built with -tags pprof serves net/http/pprof on the address in
// QUIRE_PPROF_ADDR (loopback, such as 127.0.0.1:6060), apart from the API's
// listener, so that a CPU profile can be taken under load (cmd/quirebench
// --cpuprofile). Release builds have no such listener.
func init() {
	if addr := os.Getenv(envPprofAddr); addr != "" {
		go func() { _ = http.ListenAndServe(addr, nil) }()
	}
}
