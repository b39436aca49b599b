// main_test.go sets up the test binary: the logs of both informers are
// dropped (PARITY_LOGS=1 keeps them), since a scenario's faults make both
// log on purpose. When every test passed it prints the parity line: how
// many scenarios ran, in how many settings, and that no difference was
// found (.ci/run shows it).
//
// client-go counterpart: none (test machinery).
//
// Tutorial: none (test machinery).

package parity

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"
)

func TestMain(m *testing.M) {
	if os.Getenv("PARITY_LOGS") == "" {
		slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
		klog.SetLogger(logr.Discard())
	}
	code := m.Run()
	if code == 0 && played.named.Load()+played.random.Load() > 0 {
		settings := "settings"
		if len(ourSettings) == 1 {
			settings = "setting"
		}
		fmt.Printf("parity: %d named scenarios and %d random scenarios of %d+ steps, each in %d %s (%s): "+
			"0 differences from client-go v0.37.2 but the one documented (IndexFunctionFails)\n", played.named.Load(), played.random.Load(),
			played.steps.Load(), len(ourSettings), settings, strings.Join(ourSettings, ", "))
	}
	os.Exit(code)
}

// played counts the scenarios compared in every setting, for the parity line.
var played struct {
	named, random, steps atomic.Int64
}
