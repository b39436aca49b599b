// bench_cpu_unix_test.go gives the benchmarks the CPU time the process has
// used (user and system, every thread: decoding, the garbage collector and
// the informer's goroutines alike). On a machine shared with other work, CPU
// time per object moves far less than wall time does.
//
// Reading 3: benchmarks over every layer.

//go:build unix

package informer

import (
	"syscall"
	"time"
)

// benchCPUTime returns the CPU time used by the process so far, and true.
func benchCPUTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
