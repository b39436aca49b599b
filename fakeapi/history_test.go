// history_test.go checks History against what watches get: the window
// moves with Compact, and a watch from before its oldest version gets 410.

package fakeapi

import (
	"strconv"
	"testing"
)

func TestHistoryWindow(t *testing.T) {
	s := startServer(t, Options{})
	for _, name := range []string{"a", "b", "c"} {
		if _, err := s.Create(Pods, "default", map[string]any{"metadata": map[string]any{"name": name}}); err != nil {
			t.Fatal(err)
		}
	}
	oldest, events := s.History()
	if oldest != "1" || len(events) != 3 || events[0].Type != "ADDED" || events[2].Name != "c" ||
		events[2].ResourceVersion != s.ResourceVersion() || events[0].Resource != Pods {
		t.Fatalf("History() = %s, %+v", oldest, events)
	}
	s.Compact(1)
	oldest, events = s.History()
	if len(events) != 1 || events[0].Name != "c" || oldest != "3" || events[0].ResourceVersion != "4" {
		t.Fatalf("after Compact(1): History() = %s, %+v", oldest, events)
	}
	n, _ := strconv.Atoi(oldest)
	st := openWatch(t, s.URL()+"/api/v1/pods?watch=1&resourceVersion="+strconv.Itoa(n-1))
	if ev := st.next(t, true); ev.Type != "ERROR" || ev.Object["code"] != 410.0 {
		t.Fatalf("a watch from before the window got %+v, want a 410 ERROR", ev)
	}
	st = openWatch(t, s.URL()+"/api/v1/pods?watch=1&resourceVersion="+oldest)
	if ev := st.next(t, true); ev.Type != "ADDED" {
		t.Fatalf("a watch from the oldest version got %+v, want the kept ADDED of c", ev)
	}
}
