// clientgo.go drives client-go v0.37.2's informer as a client-go user
// builds one: a rest.RESTClient for core/v1 (JSON, dialing the fake network
// through rest.Config.Dial), cache.NewListWatchFromClient, and
// cache.NewSharedIndexInformerWithOptions of *corev1.Pod.
//
// Settings are client-go's feature gates, which are process-wide: the
// harness replaces them (features.ReplaceFeatureGates, as a binary that
// owns its gates does) with a set it switches before each run, so runs of
// client-go never overlap. "first" turns InOrderInformers and
// WatchListClient off (the DeltaFIFO, list then watch: the pipeline of the
// first reading; InOrderInformers is locked on for environment variables in
// v0.37.2, but not for a replacement); "default" leaves v0.37.2's defaults.
//
// Two settings of the REST client are the harness's, so that what is
// compared is the informer: client-side throttling is off (QPS -1; ours has
// none) and the wire is JSON (ours reads JSON in every reading).
//
// client-go counterpart: none (test machinery).
//
// Tutorial: none (test machinery).

package parity

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	"k8s.io/client-go/features"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
)

// Settings, by name.
const (
	// settingFirst: our first reading (a DeltaFIFO, list then watch) ↔
	// client-go with InOrderInformers and WatchListClient off.
	settingFirst = "first"
	// settingDefault: our defaults ↔ client-go v0.37.2's defaults.
	settingDefault = "default"
)

// gates are client-go's feature gates as the harness sets them.
type gates struct {
	mu       sync.Mutex
	base     features.Gates
	override map[features.Feature]bool
}

// Enabled implements features.Gates.
func (g *gates) Enabled(key features.Feature) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if v, ok := g.override[key]; ok {
		return v
	}
	return g.base.Enabled(key)
}

// set switches the gates to setting's.
func (g *gates) set(setting string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch setting {
	case settingFirst:
		g.override = map[features.Feature]bool{
			features.InOrderInformers:             false,
			features.AtomicFIFO:                   false,
			features.InOrderInformersBatchProcess: false,
			features.UnlockWhileProcessingFIFO:    false,
			features.WatchListClient:              false,
		}
	case settingDefault:
		g.override = nil
	default:
		return fmt.Errorf("unknown setting %q", setting)
	}
	return nil
}

// clientGoGates are the gates client-go reads, once installed.
var clientGoGates = sync.OnceValue(func() *gates {
	g := &gates{base: features.FeatureGates()}
	features.ReplaceFeatureGates(g)
	return g
})

// clientGoMu keeps client-go's runs one at a time: their gates are the
// process's.
var clientGoMu sync.Mutex

// panics records the panics client-go's goroutines recover from (see
// installPanicRecorder), for the run in progress.
var panics struct {
	mu   sync.Mutex
	seen []string
}

// errorPace is client-go's pacing of HandleError (apimachinery's
// backoffError(1ms): a caller that reports errors faster than one a
// millisecond sleeps), its last time reset for each run. apimachinery's own
// keeps the real time of the process's start, which in a bubble (whose
// clock starts in 2000) would make the first error sleep for decades.
var errorPace struct {
	mu   sync.Mutex
	last time.Time
}

// paceErrors is the ErrorHandler that paces.
func paceErrors(context.Context, error, string, ...any) {
	now := time.Now()
	errorPace.mu.Lock()
	d := now.Sub(errorPace.last)
	errorPace.last = time.Now()
	errorPace.mu.Unlock()
	time.Sleep(time.Millisecond - d)
}

// installPanicRecorder makes a panic in client-go's informer a recorded
// outcome instead of the end of the test binary: utilruntime.ReallyCrash
// off (client-go's default is on: the program crashes) and a handler that
// notes it.
var installPanicRecorder = sync.OnceFunc(func() {
	utilruntime.ErrorHandlers = []utilruntime.ErrorHandler{paceErrors}
	utilruntime.ReallyCrash = false
	utilruntime.PanicHandlers = append(utilruntime.PanicHandlers, func(_ context.Context, r any) {
		panics.mu.Lock()
		defer panics.mu.Unlock()
		panics.seen = append(panics.seen, fmt.Sprint(r))
	})
})

// takePanics returns the panics recorded since the last call.
func takePanics() []string {
	panics.mu.Lock()
	defer panics.mu.Unlock()
	p := panics.seen
	panics.seen = nil
	return p
}

// clientGo is client-go's informer under test.
type clientGo struct {
	inf      cache.SharedIndexInformer
	mu       sync.Mutex
	handlers map[string]cache.ResourceEventHandlerRegistration
}

// newClientGo builds client-go's informer against the server at url. The
// caller holds clientGoMu and has set the gates.
func newClientGo(url string, cfg config, h *hooks) (subject, error) {
	installPanicRecorder()
	errorPace.mu.Lock()
	errorPace.last = time.Time{}
	errorPace.mu.Unlock()
	scheme := runtime.NewScheme()
	if err := corev1.AddToScheme(scheme); err != nil {
		return nil, err
	}
	rc, err := rest.RESTClientFor(&rest.Config{
		Host:    url,
		APIPath: "/api",
		Dial:    theNetwork.dial,
		QPS:     -1,
		ContentConfig: rest.ContentConfig{
			GroupVersion:         &corev1.SchemeGroupVersion,
			NegotiatedSerializer: serializer.NewCodecFactory(scheme).WithoutConversion(),
			ContentType:          runtime.ContentTypeJSON,
		},
	})
	if err != nil {
		return nil, err
	}
	lw := cache.NewListWatchFromClient(rc, "pods", metav1.NamespaceAll, fields.Everything())
	opts := cache.SharedIndexInformerOptions{ResyncPeriod: cfg.Resync}
	if cfg.Index {
		opts.Indexers = cache.Indexers{"byApp": func(obj any) ([]string, error) {
			name, labels := "", map[string]string(nil)
			if p, ok := obj.(*corev1.Pod); ok {
				name, labels = p.Name, p.Labels
			}
			return h.indexValues(name, labels)
		}}
	}
	inf := cache.NewSharedIndexInformerWithOptions(lw, &corev1.Pod{}, opts)
	if cfg.Transform || cfg.TransformFailsOnce != "" {
		err := inf.SetTransform(func(obj any) (any, error) {
			if p, ok := obj.(*corev1.Pod); ok && h.transformFails(p.Name) {
				return nil, fmt.Errorf("the transform fails once for %s", p.Name)
			}
			return obj, nil
		})
		if err != nil {
			return nil, err
		}
	}
	return &clientGo{inf: inf, handlers: map[string]cache.ResourceEventHandlerRegistration{}}, nil
}

// clientGoKeyRV reads a client-go object (a *corev1.Pod or a tombstone).
func clientGoKeyRV(obj any) (key, rv, uid string, tombstone bool) {
	if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		key, tombstone = d.Key, true
		obj = d.Obj
	}
	if obj == nil {
		return key, rv, uid, tombstone
	}
	if m, err := meta.Accessor(obj); err == nil {
		if key == "" {
			key = m.GetNamespace() + "/" + m.GetName()
		}
		rv, uid = m.GetResourceVersion(), string(m.GetUID())
	}
	return key, rv, uid, tombstone
}

// clientGoHandler records client-go's calls in a recorder.
type clientGoHandler struct{ r *recorder }

func (h clientGoHandler) OnAdd(obj any, isInInitialList bool) {
	key, rv, _, _ := clientGoKeyRV(obj)
	h.r.record(note{Kind: "add", Key: key, RV: rv, Initial: isInInitialList})
}

func (h clientGoHandler) OnUpdate(oldObj, newObj any) {
	key, rv, uid, _ := clientGoKeyRV(newObj)
	_, oldRV, oldUID, _ := clientGoKeyRV(oldObj)
	h.r.record(updateNote(key, oldRV, rv, oldUID, uid))
}

func (h clientGoHandler) OnDelete(obj any) {
	key, rv, _, tomb := clientGoKeyRV(obj)
	h.r.record(note{Kind: "delete", Key: key, RV: rv, Tombstone: tomb})
}

func (c *clientGo) addHandler(r *recorder, resync *time.Duration) error {
	reg, err := c.inf.AddEventHandlerWithOptions(clientGoHandler{r}, cache.HandlerOptions{ResyncPeriod: resync})
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.handlers[r.name] = reg
	return nil
}

func (c *clientGo) removeHandler(name string) error {
	c.mu.Lock()
	reg := c.handlers[name]
	c.mu.Unlock()
	return c.inf.RemoveEventHandler(reg)
}

func (c *clientGo) run(ctx context.Context) { c.inf.RunWithContext(ctx) }

func (c *clientGo) cache() []string {
	var out []string
	for _, obj := range c.inf.GetStore().List() {
		key, rv, _, _ := clientGoKeyRV(obj)
		out = append(out, key+"@"+rv)
	}
	slices.Sort(out)
	return out
}

func (c *clientGo) index() []string {
	idx := c.inf.GetIndexer()
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

func (c *clientGo) synced() bool { return c.inf.HasSynced() }

func (c *clientGo) handlerSynced(name string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.handlers[name] != nil && c.handlers[name].HasSynced()
}

func (c *clientGo) lastSyncResourceVersion() string { return c.inf.LastSyncResourceVersion() }
