// cpu_unix.go gives a client the CPU time its process has used (user and
// system, every thread), as the root's benchmarks read it
// (bench_cpu_unix_test.go).
//
// client-go counterpart: none (a benchmark).
//
// Tutorial: none (a benchmark).

//go:build unix

package main

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time used by the process so far (0 if the system
// does not say).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
