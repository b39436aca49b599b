// features_test.go tests the PipelineGates switches: which queue each
// combination builds (as client-go's newQueueFIFO), and, over HTTP against
// fakeapi, that bookmarks reach the cache's LastStoreSyncResourceVersion
// through the RealFIFO while the 1.32 pipeline's cache answers "".
//
// client-go counterpart: newQueueFIFO in tools/cache controller.go;
// threadSafeMap.LastStoreSyncResourceVersion (v0.37.2).
//
// Tutorial: the walkthrough's Step03RealFIFO.
//
// Reading 2: today's client-go: the RealFIFO, batches, the streaming list, the gates.

package informer

import (
	"fmt"
	"testing"
	"time"

	"github.com/learn-k8s/informer/fakeapi"
)

func TestNewQueueFIFOFollowsTheGates(t *testing.T) {
	nonAtomic := DefaultPipelineGates()
	nonAtomic.AtomicFIFO = false
	noUnlock := DefaultPipelineGates()
	noUnlock.UnlockWhileProcessingFIFO = false
	tests := []struct {
		gates PipelineGates
		want  string
	}{
		{DefaultPipelineGates(), "RealFIFO atomic=true unlock=true bookmarks=true known=false"},
		{noUnlock, "RealFIFO atomic=true unlock=false bookmarks=true known=false"},
		{nonAtomic, "RealFIFO atomic=false unlock=false bookmarks=false known=true"},
		{PipelineGates132(), "DeltaFIFO replaced=true known=true"},
	}
	for _, tt := range tests {
		var got string
		s := NewSharedIndexInformerWithOptions(nil, &Pod{}, SharedIndexInformerOptions{PipelineGates: &tt.gates}).(*sharedIndexInformer)
		queue := newQueueFIFO(s.indexer, nil, s.gates)
		switch q := queue.(type) {
		case *RealFIFO:
			if q.err != nil {
				t.Fatalf("%v: the queue refuses its options: %v", tt.gates, q.err)
			}
			got = fmt.Sprintf("RealFIFO atomic=%t unlock=%t bookmarks=%t known=%t",
				q.emitAtomicEvents, q.unlockWhileProcessing, q.emitDeltaTypeBookmark, q.knownObjects != nil)
		case *DeltaFIFO:
			got = fmt.Sprintf("DeltaFIFO replaced=%t known=%t", q.emitDeltaTypeReplaced, q.knownObjects != nil)
		}
		if got != tt.want {
			t.Errorf("%v: built %q, want %q", tt.gates, got, tt.want)
		}
	}
}

func TestBookmarksReachTheStoreVersion(t *testing.T) {
	for _, p := range pipelines {
		t.Run(p.name, func(t *testing.T) {
			s := startServer(t, fakeapi.Options{BookmarkInterval: 10 * time.Millisecond})
			createPod(t, s, "default", "a", nil)
			gates := p.gates
			inf := NewSharedIndexInformerWithOptions(podsLW(t, s, NamespaceAll), &Pod{},
				SharedIndexInformerOptions{PipelineGates: &gates})
			runInformer(t, inf)
			waitFor(t, "the sync", inf.HasSynced)
			// Writes to another namespace's pods move the server's version;
			// the watch sees them, and bookmarks carry the newest version.
			rv := createPod(t, s, "other", "b", nil)
			store := inf.GetStore()
			if !gates.AtomicFIFO {
				waitFor(t, "the reflector to see "+rv, func() bool { return inf.LastSyncResourceVersion() == rv })
				if got := store.LastStoreSyncResourceVersion(); got != "" {
					t.Fatalf("with AtomicFIFO off the store version is %q, want \"\" (as client-go)", got)
				}
				return
			}
			waitFor(t, "the store version to reach "+rv, func() bool { return store.LastStoreSyncResourceVersion() == rv })
			// A write to a ConfigMap moves the server's version without a pod
			// event; the next pod bookmark carries it into the store.
			cm, err := s.Create(fakeapi.ConfigMaps, "default", map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
				"metadata": map[string]any{"name": "c", "namespace": "default"}})
			must(t, err)
			cmVersion := cm["metadata"].(map[string]any)["resourceVersion"].(string)
			waitFor(t, "a bookmark at "+cmVersion, func() bool { return store.LastStoreSyncResourceVersion() == cmVersion })
			if _, exists, _ := store.GetByKey("default/c"); exists {
				t.Fatal("the ConfigMap reached the pod cache")
			}
		})
	}
}
