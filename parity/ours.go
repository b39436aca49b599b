// ours.go drives this repository's informer (github.com/learn-k8s/informer,
// the root package, or a generated reading that go.mod's replace points at)
// the way clientgo.go drives client-go's: over HTTP through the package's
// own RESTClient and ListWatch, pods decoded into its *Pod.
//
// The RESTClient of a config without TLS clones http.DefaultTransport, so
// the harness points http.DefaultTransport's dialer at the fake network
// (useFakeNetwork): the root package needs no hook for it, and neither
// does the first reading.
//
// client-go counterpart: none (test machinery).
//
// Tutorial: none (test machinery).

package parity

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	informer "github.com/learn-k8s/informer"
)

// useFakeNetwork makes http.DefaultTransport, which our RESTClient clones,
// dial the fake network. The test binary dials nothing else.
var useFakeNetwork = sync.OnceFunc(func() {
	http.DefaultTransport.(*http.Transport).DialContext = theNetwork.dial
})

// ours is our informer under test.
type ours struct {
	inf      informer.SharedIndexInformer
	mu       sync.Mutex
	handlers map[string]informer.ResourceEventHandlerRegistration
}

// newOurs builds our informer against the server at url, in setting.
func newOurs(url string, setting string, cfg config, h *hooks) (subject, error) {
	useFakeNetwork()
	c, err := informer.NewRESTClient(informer.RESTConfig{Host: url})
	if err != nil {
		return nil, err
	}
	lw := informer.NewListWatchFromClient(c, informer.GroupVersionResource{Version: "v1", Resource: "pods"},
		informer.NamespaceAll, "")
	opts := informer.SharedIndexInformerOptions{ResyncPeriod: cfg.Resync}
	if err := setOurGates(&opts, setting); err != nil {
		return nil, err
	}
	if cfg.Index {
		opts.Indexers = informer.Indexers{"byApp": func(obj any) ([]string, error) {
			name, labels := "", map[string]string(nil)
			if p, ok := obj.(*informer.Pod); ok {
				name, labels = p.Name, p.Labels
			}
			return h.indexValues(name, labels)
		}}
	}
	inf := informer.NewSharedIndexInformerWithOptions(lw, &informer.Pod{}, opts)
	if cfg.Transform || cfg.TransformFailsOnce != "" {
		err := inf.SetTransform(func(obj any) (any, error) {
			if p, ok := obj.(*informer.Pod); ok && h.transformFails(p.Name) {
				return nil, fmt.Errorf("the transform fails once for %s", p.Name)
			}
			return obj, nil
		})
		if err != nil {
			return nil, err
		}
	}
	return &ours{inf: inf, handlers: map[string]informer.ResourceEventHandlerRegistration{}}, nil
}

// ourNote is the note of one of our objects (a *Pod or a tombstone).
func ourKeyRV(obj any) (key, rv, uid string, tombstone bool) {
	if d, ok := obj.(informer.DeletedFinalStateUnknown); ok {
		key, tombstone = d.Key, true
		obj = d.Obj
	}
	if p, ok := obj.(*informer.Pod); ok {
		if key == "" {
			key = p.Namespace + "/" + p.Name
		}
		rv, uid = p.ResourceVersion, p.UID
	}
	return key, rv, uid, tombstone
}

// ourHandler records our informer's calls in a recorder.
type ourHandler struct{ r *recorder }

func (h ourHandler) OnAdd(obj any, isInInitialList bool) {
	key, rv, _, _ := ourKeyRV(obj)
	h.r.record(note{Kind: "add", Key: key, RV: rv, Initial: isInInitialList})
}

func (h ourHandler) OnUpdate(oldObj, newObj any) {
	key, rv, uid, _ := ourKeyRV(newObj)
	_, oldRV, oldUID, _ := ourKeyRV(oldObj)
	h.r.record(updateNote(key, oldRV, rv, oldUID, uid))
}

func (h ourHandler) OnDelete(obj any) {
	key, rv, _, tomb := ourKeyRV(obj)
	h.r.record(note{Kind: "delete", Key: key, RV: rv, Tombstone: tomb})
}

func (o *ours) addHandler(r *recorder, resync *time.Duration) error {
	reg, err := o.inf.AddEventHandlerWithOptions(ourHandler{r}, informer.HandlerOptions{ResyncPeriod: resync})
	if err != nil {
		return err
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.handlers[r.name] = reg
	return nil
}

func (o *ours) removeHandler(name string) error {
	o.mu.Lock()
	reg := o.handlers[name]
	o.mu.Unlock()
	return o.inf.RemoveEventHandler(reg)
}

func (o *ours) run(ctx context.Context) { o.inf.Run(ctx) }

func (o *ours) cache() []string {
	var out []string
	for _, obj := range o.inf.GetStore().List() {
		key, rv, _, _ := ourKeyRV(obj)
		out = append(out, key+"@"+rv)
	}
	slices.Sort(out)
	return out
}

func (o *ours) index() []string {
	idx := o.inf.GetIndexer()
	var out []string
	for _, v := range idx.ListIndexFuncValues("byApp") {
		keys, err := idx.IndexKeys("byApp", v)
		if err != nil {
			out = append(out, v+"=error: "+err.Error())
			continue
		}
		slices.Sort(keys)
		out = append(out, v+"="+strings.Join(keys, ","))
	}
	slices.Sort(out)
	return out
}

func (o *ours) synced() bool { return o.inf.HasSynced() }

func (o *ours) handlerSynced(name string) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.handlers[name] != nil && o.handlers[name].HasSynced()
}

func (o *ours) lastSyncResourceVersion() string { return o.inf.LastSyncResourceVersion() }
