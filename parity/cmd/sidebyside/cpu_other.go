// cpu_other.go is cpu_unix.go where getrusage does not exist: no CPU time
// (the CPU columns then read 0).
//
// client-go counterpart: none (a benchmark).
//
// Tutorial: none (a benchmark).

//go:build !unix

package main

import "time"

// cpuTime returns 0: this system's CPU time is not read.
func cpuTime() time.Duration { return 0 }
