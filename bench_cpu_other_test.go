// bench_cpu_other_test.go is benchCPUTime where the process's CPU time is
// not read (see bench_cpu_unix_test.go): the benchmarks then leave out
// their CPU figures.
//
// Reading 3: benchmarks over every layer.

//go:build !unix

package informer

import "time"

// benchCPUTime returns false: no CPU time here.
func benchCPUTime() (time.Duration, bool) { return 0, false }
