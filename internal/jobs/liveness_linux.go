//go:build linux

package jobs

import (
	"errors"
	"os"
	"strings"
	"syscall"
)

// pidNamespace returns the id of this process's pid namespace (the inode
// of /proc/self/ns/pid): pids compare only within one.
func pidNamespace() string {
	link, err := os.Readlink("/proc/self/ns/pid")
	if err != nil {
		return ""
	}
	// "pid:[4026531836]"
	_, rest, ok := strings.Cut(link, "[")
	if !ok {
		return ""
	}
	return strings.TrimSuffix(rest, "]")
}

// processGone tells whether no process has pid (a process of another user
// is there: EPERM; a zombie not yet reaped counts as there).
func processGone(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
