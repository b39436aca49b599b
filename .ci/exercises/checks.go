// checks.go holds what the checks of exercises.go assert with: which tests
// failed, what the output shows, how podwatch's and health's figures move.
// It has no client-go counterpart and teaches no tutorial section.

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// all returns the first error of errs that is not nil.
func all(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// failRE matches the line go test prints for a failed top-level test.
var failRE = regexp.MustCompile(`(?m)^--- FAIL: (\S+) `)

// fails checks that go test failed, and that the tests that failed are
// exactly want (the package runs its tests once per pipeline: each name
// counts once).
func fails(out string, err error, want ...string) error {
	if err == nil {
		return errors.New("go test passed, want a failure")
	}
	var got []string
	for _, m := range failRE.FindAllStringSubmatch(out, -1) {
		if !slices.Contains(got, m[1]) {
			got = append(got, m[1])
		}
	}
	slices.Sort(got)
	want = slices.Sorted(slices.Values(want))
	if !slices.Equal(got, want) {
		return fmt.Errorf("failed tests %v, want %v", got, want)
	}
	return nil
}

// shows checks that out holds each of texts.
func shows(out string, texts ...string) error {
	for _, t := range texts {
		if !strings.Contains(out, t) {
			return fmt.Errorf("the output does not show %q", t)
		}
	}
	return nil
}

// showsNot checks that out does not hold text.
func showsNot(out, text string) error {
	if strings.Contains(out, text) {
		return fmt.Errorf("the output shows %q", text)
	}
	return nil
}

// matches checks that out has a match of the regular expression re.
func matches(out, re string) error {
	if !regexp.MustCompile(re).MatchString(out) {
		return fmt.Errorf("the output has nothing like %q", re)
	}
	return nil
}

// countOf counts text in out.
func countOf(out, text string) int { return strings.Count(out, text) }

// count checks that out holds text exactly n times.
func count(out, text string, n int) error {
	if got := countOf(out, text); got != n {
		return fmt.Errorf("the output shows %q %d times, want %d", text, got, n)
	}
	return nil
}

var eventTimeRE = regexp.MustCompile(`(?m)^(\d\d:\d\d:\d\d\.\d\d\d)  (\w+) `)

// lastTime is the time of the handler's last event line in podwatch's output.
func lastTime(out, handler string) time.Time {
	var last time.Time
	for _, m := range eventTimeRE.FindAllStringSubmatch(out, -1) {
		if m[2] == handler {
			last, _ = time.Parse("15:04:05.000", m[1])
		}
	}
	return last
}

// handlerFallsBehind reads two samples of examples/health's /debug/vars
// and checks that the slow handler finished fewer notifications between
// them than the server made changes: its backlog grows.
func handlerFallsBehind(out string, err error) error {
	if err != nil {
		return err
	}
	type sample struct {
		Health struct {
			Version  string `json:"lastSyncResourceVersion"`
			Handlers []struct {
				Handled int `json:"handled"`
			} `json:"handlers"`
		} `json:"informer_health"`
	}
	var samples []sample
	dec := json.NewDecoder(strings.NewReader(out))
	for {
		var s sample
		if err := dec.Decode(&s); err == io.EOF {
			break
		} else if err != nil {
			return fmt.Errorf("reading /debug/vars: %v", err)
		}
		samples = append(samples, s)
	}
	if len(samples) != 2 || len(samples[0].Health.Handlers) == 0 || len(samples[1].Health.Handlers) == 0 {
		return errors.New("want two samples of informer_health with handlers[0]")
	}
	v0, err0 := strconv.Atoi(samples[0].Health.Version)
	v1, err1 := strconv.Atoi(samples[1].Health.Version)
	if err := errors.Join(err0, err1); err != nil {
		return err
	}
	handled := samples[1].Health.Handlers[0].Handled - samples[0].Health.Handlers[0].Handled
	if handled <= 0 || handled >= v1-v0 {
		return fmt.Errorf("handlers[0].handled rose by %d while lastSyncResourceVersion rose by %d: want the handler behind", handled, v1-v0)
	}
	return nil
}

// syncBuffer is a bytes.Buffer that a server's output goroutine and the
// waiting check may use at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Len()
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
