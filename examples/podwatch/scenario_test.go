// scenario_test.go plays the demo's story in both pipelines: client-go
// v0.37.2's default (RealFIFO, streaming list) and 1.32's (DeltaFIFO, list
// then watch). The story checks every event it expects; a missing one fails.
//
// client-go counterpart: none (it tests the demo).
//
// Tutorial: 004 §1, §2.1–2.3, §4.3; 000 §4.3.
package main

import "testing"

func TestScenarioInBothPipelines(t *testing.T) {
	for _, name := range []string{"1.37", "1.32"} {
		t.Run("pipeline="+name, func(t *testing.T) {
			gates, err := pipelineGates(name)
			if err != nil {
				t.Fatal(err)
			}
			if err := playScenario(gates); err != nil {
				t.Fatal(err)
			}
		})
	}
	if _, err := pipelineGates("1.99"); err == nil {
		t.Fatal("an unknown -pipeline value was accepted")
	}
}
