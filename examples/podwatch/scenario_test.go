// scenario_test.go plays the demo's story in both pipelines: client-go
// v0.37.2's default (RealFIFO, streaming list) and 1.32's (DeltaFIFO, list
// then watch), one in each language. The story checks every event it
// expects; a missing one fails. In Chinese, every line it prints must hold
// Chinese: a line left in English fails.
//
// client-go counterpart: none (it tests the demo).
//
// Tutorial: 004 §1, §2.1–2.3, §4.3; 000 §4.3.

package main

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"
	"unicode"
)

func TestScenarioInBothPipelines(t *testing.T) {
	for _, c := range []struct{ pipeline, lang string }{{"1.37", "zh"}, {"1.32", "en"}} {
		t.Run("pipeline="+c.pipeline+",lang="+c.lang, func(t *testing.T) {
			gates, err := pipelineGates(c.pipeline)
			if err != nil {
				t.Fatal(err)
			}
			var out bytes.Buffer
			n := &narrator{w: &out, zh: c.lang == "zh"}
			// The scenario bounds each of its waits (15 s); this bounds the
			// whole, so that a hang anywhere else fails the test too.
			played := make(chan error, 1)
			go func() { played <- playScenario(gates, 0, n) }()
			select {
			case err := <-played:
				if err != nil {
					t.Fatalf("%v; it printed:\n%s", err, out.String())
				}
			case <-time.After(time.Minute):
				n.mu.Lock() // the scenario writes under it
				printed := out.String()
				n.mu.Unlock()
				t.Fatalf("the scenario did not end within a minute; it printed:\n%s", printed)
			}
			for _, line := range strings.Split(out.String(), "\n") {
				if line == "" {
					continue
				}
				if han := hasHan(line); han != (c.lang == "zh") {
					t.Errorf("in %s mode, a line with Chinese=%v: %q", c.lang, han, line)
				}
			}
		})
	}
	if _, err := pipelineGates("1.99"); err == nil {
		t.Fatal("an unknown -pipeline value was accepted")
	}
}

// hasHan reports whether s holds a Chinese character.
func hasHan(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.Is(unicode.Han, r) }) >= 0
}

// TestLanguageFromTheEnvironment: podwatch picks its language by the
// walkthrough's rule, read from the environment as main reads it.
func TestLanguageFromTheEnvironment(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{}, "en"},
		{map[string]string{"LANG": "zh_CN.UTF-8"}, "zh"},
		{map[string]string{"LANG": "en_US.UTF-8"}, "en"},
		{map[string]string{"LC_ALL": "zh_TW.UTF-8", "LANG": "en_US.UTF-8"}, "zh"},
		{map[string]string{"LC_ALL": "C", "LANG": "zh_CN.UTF-8"}, "en"},
		{map[string]string{"LANGUAGE": "zh_CN:en", "LANG": "en_US.UTF-8"}, "zh"},
		{map[string]string{"INFORMER_LANG": "zh"}, "zh"},
		{map[string]string{"INFORMER_LANG": "en", "LANG": "zh_CN.UTF-8"}, "en"},
	} {
		for _, name := range []string{"INFORMER_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"} {
			t.Setenv(name, c.env[name])
		}
		if got := readerLanguage(os.Getenv); got != c.want {
			t.Errorf("%v: language %q, want %q", c.env, got, c.want)
		}
	}
}
