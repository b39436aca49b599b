// main_test.go sets up the test binary: the logs of both informers are
// dropped (PARITY_LOGS=1 keeps them), since a scenario's faults make both
// log on purpose.
//
// client-go counterpart: none (test machinery).

package parity

import (
	"io"
	"log/slog"
	"os"
	"testing"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"
)

func TestMain(m *testing.M) {
	if os.Getenv("PARITY_LOGS") == "" {
		slog.SetDefault(slog.New(slog.NewTextHandler(io.Discard, nil)))
		klog.SetLogger(logr.Discard())
	}
	os.Exit(m.Run())
}
