// pipelines_test.go runs the whole test suite once per informer pipeline:
// client-go v0.37.2's default (RealFIFO, atomic events, batches, streaming
// list) and client-go 1.32's (DeltaFIFO, list then watch). Every test that
// makes an informer without choosing its PipelineGates runs in both; the
// tests of one queue alone are unaffected and simply run twice.
//
// client-go counterpart: client-go's own tests switch gates with
// features.ReplaceFeatureGates / SetForTesting.
//
// Tutorial: the walkthrough's Step03RealFIFO; features.go.
//
// Reading 2: today's client-go: the RealFIFO, batches, the streaming list, the gates.

package informer

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

// pipelines is the table of configurations the suite runs in. Set
// INFORMER_PIPELINE=realfifo or =deltafifo to run just one.
var pipelines = []struct {
	name  string
	gates PipelineGates
}{
	{"realfifo", DefaultPipelineGates()},
	{"deltafifo", PipelineGates132()},
}

func TestMain(m *testing.M) {
	flag.Parse()
	only := os.Getenv("INFORMER_PIPELINE")
	once := flag.Lookup("test.bench").Value.String() != "" || flag.Lookup("test.fuzz").Value.String() != ""
	code := 0
	for i, p := range pipelines {
		if only != "" && !strings.EqualFold(only, p.name) {
			continue
		}
		defaultPipelineGates = p.gates
		// The walkthrough is told once, in the first pipeline; the second
		// runs every test again and tells only what it does differently
		// (sayDiffers). INFORMER_PIPELINE=deltafifo tells all of it.
		narrationOff = i > 0 && only == ""
		if testing.Verbose() {
			printPipelineHeader(p.name, p.gates, narrationOff)
		}
		if c := m.Run(); c != 0 {
			code = c
		}
		if once {
			break
		}
	}
	os.Exit(code)
}

// TestInformerPipelineVariable checks INFORMER_PIPELINE. It also makes go
// test record the variable (TestMain reads it before the test log starts),
// so that changing it reruns the tests instead of replaying a cached run.
func TestInformerPipelineVariable(t *testing.T) {
	only := os.Getenv("INFORMER_PIPELINE")
	if only == "" {
		return
	}
	for _, p := range pipelines {
		if strings.EqualFold(only, p.name) {
			return
		}
	}
	t.Errorf("INFORMER_PIPELINE=%q names no pipeline; use realfifo or deltafifo", only)
}

// printPipelineHeader announces the run of one pipeline, in the reader's
// language (the tests read the language again, so go test's cache sees it).
func printPipelineHeader(name string, gates PipelineGates, quiet bool) {
	zh := readerLanguage(os.Getenv) == "zh"
	if zh {
		fmt.Printf("\n##### informer 流水线：%s — %v\n", name, gates)
	} else {
		fmt.Printf("\n##### informer pipeline: %s — %v\n", name, gates)
	}
	switch {
	case quiet && zh:
		fmt.Printf("##### （同样的测试再运行一遍；只讲这条流水线不同的地方）\n")
	case quiet:
		fmt.Printf("##### (the same tests again; only what this pipeline does differently is told)\n")
	}
	fmt.Println()
}
