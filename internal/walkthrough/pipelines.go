// pipelines.go runs a package's tests once per informer pipeline, as the
// root package's pipelines_test.go does for its own: client-go v0.37.2's
// default (RealFIFO, batches, streaming list) and client-go 1.32's
// (DeltaFIFO, list then watch). The informers the tests make take their
// gates from Gates. INFORMER_PIPELINE=realfifo (or deltafifo) runs one.
//
// client-go counterpart: none (client-go's tests switch gates with
// features.SetForTesting).
//
// Tutorial: none of its own; the root's features.go.

package walkthrough

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	informer "github.com/learn-k8s/informer"
)

// currentGates are the gates of the run in progress; only Main sets them,
// between runs, when no test is running.
var currentGates = informer.DefaultPipelineGates()

// quiet silences Say while the second pipeline runs: the Steps are told
// once, in the first; only Main sets it, between runs.
var quiet bool

// Gates returns the pipeline gates of the run in progress, for
// SharedIndexInformerOptions.PipelineGates.
func Gates() *informer.PipelineGates {
	g := currentGates
	return &g
}

// Main is a package's TestMain: it runs the package's tests once per
// pipeline and exits with the first failure's code.
func Main(m *testing.M) {
	flag.Parse() // testing.Verbose needs the flags
	only := os.Getenv("INFORMER_PIPELINE")
	code := 0
	for i, p := range []struct {
		name  string
		gates informer.PipelineGates
	}{{"realfifo", informer.DefaultPipelineGates()}, {"deltafifo", informer.PipelineGates132()}} {
		if only != "" && !strings.EqualFold(only, p.name) {
			continue
		}
		currentGates = p.gates
		quiet = i > 0 && only == ""
		if testing.Verbose() {
			header := "\n##### informer pipeline: %s — %v\n"
			if Language() == "zh" {
				header = "\n##### informer 流水线：%s — %v\n"
			}
			fmt.Printf(header, p.name, p.gates)
			if quiet && Language() == "zh" {
				fmt.Println("##### （同样的测试再运行一遍，不再讲述）")
			} else if quiet {
				fmt.Println("##### (the same tests again, told once above)")
			}
			fmt.Println()
		}
		if c := m.Run(); c != 0 && code == 0 {
			code = c
		}
	}
	os.Exit(code)
}
