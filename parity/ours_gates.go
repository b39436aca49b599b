// ours_gates.go sets our informer's pipeline for a setting, on the full
// source. (ours_reading1.go does it for the first reading, which has one
// pipeline and no gates.)
//
// client-go counterpart: none (test machinery).
//
// Tutorial: none (test machinery).

//go:build !reading1

package parity

import (
	"fmt"

	informer "github.com/learn-k8s/informer"
)

// ourSettings are the settings the full source runs in.
var ourSettings = []string{settingFirst, settingDefault}

// setOurGates sets opts for setting: the 1.32 pipeline for "first" (a
// DeltaFIFO, list then watch: what the first reading runs), v0.37.2's
// defaults for "default".
func setOurGates(opts *informer.SharedIndexInformerOptions, setting string) error {
	var g informer.PipelineGates
	switch setting {
	case settingFirst:
		g = informer.PipelineGates132()
	case settingDefault:
		g = informer.DefaultPipelineGates()
	default:
		return fmt.Errorf("unknown setting %q", setting)
	}
	opts.PipelineGates = &g
	return nil
}
