// Command health runs a pod informer and publishes its health figures with
// expvar on a loopback port, so you can watch them with curl:
//
//	go run ./examples/health                 # starts its own fake API server with churn
//	curl -s localhost:6060/debug/vars | jq .informer_health
//
// It logs when the informer has synced and the outcome of every consistency
// check.
//
// Flags: -server URL to watch a real API server or `kubectl proxy` instead
// (e.g. http://127.0.0.1:8001), -metrics the loopback address to publish
// on, -slow D to make a handler take D per notification (watch it stay
// busy), -resync D the resync period, -check D the consistency check period.
//
// The figures come from a health.Recorder wrapped, explicitly, around the
// informer's ListerWatcher, its queue (WrapQueue) and its handler.
//
// client-go counterpart: none; client-go exposes such figures as Prometheus
// metrics. Tutorial: 000 ch. 5 (health figures, backpressure, consistency).
package main

import (
	"context"
	"expvar"
	"flag"
	"fmt"
	"github.com/learn-k8s/informer/internal/walkthrough"
	"log"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	informer "github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/consistencydetector"
	"github.com/learn-k8s/informer/fakeapi"
	"github.com/learn-k8s/informer/health"
)

func main() {
	server := flag.String("server", "", "API server URL; empty starts an in-process fake API server with churn")
	metrics := flag.String("metrics", "127.0.0.1:6060", "loopback address for /debug/vars")
	slow := flag.Duration("slow", 0, "time a handler spends on each notification")
	resync := flag.Duration("resync", 30*time.Second, "resync period (0: none)")
	check := flag.Duration("check", time.Minute, "consistency check period (0: none)")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var srv *fakeapi.Server
	if *server == "" {
		var err error
		if srv, err = fakeapi.Start(fakeapi.Options{BookmarkInterval: 5 * time.Second}); err != nil {
			log.Fatal(err)
		}
		defer srv.Close() // after every goroutine below has ended
		*server = srv.URL()
		logf("started a fake API server on %s with churning pods", "启动了一个 fakeapi 服务器 %s，其中的 Pod 不断变化", srv.URL())
	}
	var wg sync.WaitGroup
	defer wg.Wait()
	if srv != nil {
		wg.Go(func() { churn(ctx, srv) })
	}
	client, err := informer.NewRESTClient(informer.RESTConfig{Host: *server})
	if err != nil {
		log.Fatal(err)
	}
	rec := health.NewRecorder(nil)
	plain := informer.NewListWatchFromClient(client,
		informer.GroupVersionResource{Version: "v1", Resource: "pods"}, informer.NamespaceAll, "")
	lw := rec.ListerWatcher(plain) // the informer's lists and watches only: the detector's are not counted
	inf := informer.NewSharedIndexInformerWithOptions(lw, &informer.Pod{}, informer.SharedIndexInformerOptions{
		ResyncPeriod: *resync, WrapQueue: rec.WrapQueue})
	if _, err := inf.AddEventHandler(rec.Handler("worker", informer.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { time.Sleep(*slow) }, // the demo's stand-in for slow work
		UpdateFunc: func(any, any) { time.Sleep(*slow) },
		DeleteFunc: func(any) { time.Sleep(*slow) },
	})); err != nil {
		log.Fatal(err)
	}

	// expvar.Func calls this on every request; Health marshals to readable JSON.
	expvar.Publish("informer_health", expvar.Func(func() any { return rec.Health(inf) }))
	var lastReport sync.Mutex
	report := map[string]any{"checked": false}
	expvar.Publish("informer_consistency", expvar.Func(func() any {
		lastReport.Lock()
		defer lastReport.Unlock()
		return report
	}))

	wg.Go(func() { inf.Run(ctx) })
	wg.Go(func() {
		if informer.WaitForCacheSync(ctx, inf.HasSynced) {
			logf("synced at version %s", "已同步到资源版本 %s", inf.LastSyncResourceVersion())
		}
	})
	if *check > 0 {
		detector := consistencydetector.New(plain, inf)
		wg.Go(func() {
			t := time.NewTicker(*check)
			defer t.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
				}
				r, err := detector.Check(ctx)
				errText := "" // not fmt.Sprint(err), which would print "<nil>" after a good check
				if err != nil {
					errText = err.Error()
				}
				consistent := err == nil && r.Consistent()
				lastReport.Lock()
				report = map[string]any{"checked": true, "at": time.Now().Format(time.RFC3339),
					"resourceVersion": r.ResourceVersion, "consistent": consistent,
					"problems": r.Problems, "error": errText}
				lastReport.Unlock()
				verdict := map[bool]string{true: "一致", false: "不一致"}[consistent]
				logf("consistency check at version %[1]s: consistent %[2]v", "资源版本 %[1]s 的一致性检查：%[3]s",
					r.ResourceVersion, consistent, verdict)
			}
		})
	}

	ln, err := net.Listen("tcp", *metrics)
	if err != nil {
		log.Fatal(err)
	}
	if !ln.Addr().(*net.TCPAddr).IP.IsLoopback() {
		log.Fatalf("-metrics %s is not a loopback address: the figures are for this machine only", *metrics)
	}
	hs := &http.Server{Handler: http.DefaultServeMux, ReadHeaderTimeout: 5 * time.Second} // expvar registered /debug/vars there
	wg.Go(func() {
		<-ctx.Done()
		_ = hs.Close()
	})
	logf("health figures on http://%s/debug/vars (Ctrl-C to stop)", "健康指标在 http://%s/debug/vars（Ctrl-C 停止）", ln.Addr())
	if err := hs.Serve(ln); err != http.ErrServerClosed {
		log.Print(err)
		stop()
	}
}

// churn creates, relabels and deletes pods at random, a few times a second.
func churn(ctx context.Context, srv *fakeapi.Server) {
	t := time.NewTicker(300 * time.Millisecond)
	defer t.Stop()
	for i := 0; ; i++ {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		name := fmt.Sprintf("pod-%d", rand.IntN(10))
		pod := map[string]any{
			"metadata": map[string]any{"name": name, "labels": map[string]any{"round": fmt.Sprint(i)}},
			"spec":     map[string]any{"containers": []any{map[string]any{"name": "c", "image": "nginx"}}},
		}
		if _, err := srv.Create(fakeapi.Pods, "default", pod); err != nil {
			if rand.IntN(2) == 0 {
				_ = srv.Delete(fakeapi.Pods, "default", name)
			} else {
				_, _ = srv.Update(fakeapi.Pods, "default", pod)
			}
		}
	}
}

// logf logs a line in the reader's language (the walkthrough's rule:
// LANG=zh_CN.UTF-8 or INFORMER_LANG=zh gives Chinese); en and zh take the
// same args.
func logf(en, zh string, args ...any) {
	if walkthrough.Language() == "zh" {
		en = zh
	}
	log.Printf(en, args...)
}
