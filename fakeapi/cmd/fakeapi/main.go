// Command fakeapi runs the fake Kubernetes API server on its own, so you can
// look at the List/Watch protocol with curl and kubectl, and break it on
// purpose while they watch:
//
//	go run ./fakeapi/cmd/fakeapi -seed 3 -churn 1
//	curl -s localhost:8080/api/v1/namespaces/default/pods
//	curl -sN 'localhost:8080/api/v1/namespaces/default/pods?watch=1'
//	kubectl --server http://localhost:8080 get pods -w
//	curl -X POST 'localhost:8080/debug/fakeapi/compact'            # the next re-watch gets 410
//
// Flags: -addr (default 127.0.0.1:8080), -seed N sample pods, -churn R random
// changes per second, -history N events kept, -token T to require a bearer
// token, -bookmark D bookmark period, -quiet to stop the request log,
// -tls to serve HTTPS and HTTP/2 (the certificate is written to -cacert),
// -no-gc to leave ownerReferences to kube-controller-manager's garbage
// collector run against it (fakeapi plays that collector by default).
//
// Faults, switched on at start by flags or at any time by POSTing (from
// loopback only) to the debug endpoints (-debug=false turns them off):
//
//	-compact-every D      compact the history every D       POST /debug/fakeapi/compact?keep=N
//	-close-watches-every D drop every watch every D         POST /debug/fakeapi/close-watches
//	-fail N -fail-code C  fail the next N requests with C   POST /debug/fakeapi/fail?count=N&code=C
//	                      (500, 429 with Retry-After, 503)
//	-delay D              delay every answer by D           POST /debug/fakeapi/delay?duration=D
//	                                                        POST /debug/fakeapi/shutdown?closeAfter=D&down=E
//	                                                        POST /debug/fakeapi/blackhole?duration=D
//
// shutdown is a graceful shutdown as in a rolling restart (HTTP/2 GOAWAY,
// the connections closed after closeAfter, the server back after down);
// blackhole makes every open connection go dark for good, and new ones for
// the duration (see fakeapi/faults_network.go).
// client-go counterpart: none; it stands in for kube-apiserver.
// Tutorial: 004 §2.5 (resource versions and 409 on the wire), 000 §4.3.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/learn-k8s/informer/fakeapi"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "listen address")
	seed := flag.Int("seed", 0, "sample pods to create in namespace default")
	churn := flag.Float64("churn", 0, "random pod changes per second")
	history := flag.Int("history", 1000, "watch events kept for resuming")
	token := flag.String("token", "", "require Authorization: Bearer <token>")
	bookmark := flag.Duration("bookmark", 10*time.Second, "period of BOOKMARK events")
	quiet := flag.Bool("quiet", false, "do not log requests")
	useTLS := flag.Bool("tls", false, "serve HTTPS (HTTP/2 and HTTP/1.1) with a self-signed certificate")
	caFile := flag.String("cacert", "fakeapi-ca.crt", "with -tls, where to write the certificate for clients to trust")
	debug := flag.Bool("debug", true, "serve the fault switches as POST endpoints under /debug/fakeapi/ (loopback only)")
	compactEvery := flag.Duration("compact-every", 0, "compact the history every so often (0: never): re-watches get 410")
	closeEvery := flag.Duration("close-watches-every", 0, "end every watch every so often (0: never)")
	failN := flag.Int("fail", 0, "fail the first N API requests")
	failCode := flag.Int("fail-code", 500, "the code of -fail: 500, 429 (with Retry-After), 503, ...")
	delay := flag.Duration("delay", 0, "delay every API answer by this much")
	flag.Parse()

	opts := fakeapi.Options{Addr: *addr, Token: *token, History: *history, BookmarkInterval: *bookmark,
		TLS: *useTLS, Debug: *debug}
	if !*quiet {
		opts.Logf = log.Printf
	}
	srv, err := fakeapi.Start(opts)
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	// The server starts with default, kube-system, kube-public and
	// kube-node-lease, as a cluster does.
	for i := range *seed {
		if _, err := srv.Create(fakeapi.Pods, "default", pod(fmt.Sprintf("pod-%d", i+1))); err != nil {
			log.Fatal(err)
		}
	}
	kubectl := "kubectl --server " + srv.URL()
	if *useTLS {
		if err := os.WriteFile(*caFile, srv.CACertPEM(), 0o644); err != nil {
			log.Fatal(err)
		}
		kubectl += " --certificate-authority " + *caFile
	}
	log.Printf("fake API server on %s (resourceVersion %s); try: %s get pods", srv.URL(), srv.ResourceVersion(), kubectl)
	if *debug {
		curl := "curl -X POST"
		if *useTLS {
			curl += " --cacert " + *caFile
		}
		log.Printf("break it: %s %s/debug/fakeapi/compact (also close-watches, fail, delay, shutdown, blackhole)", curl, srv.URL())
	}
	if *failN > 0 {
		srv.FailNext(*failN, *failCode)
	}
	srv.SetDelay(*delay)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *churn > 0 {
		go churnPods(ctx, srv, *churn)
	}
	if *compactEvery > 0 {
		go every(ctx, *compactEvery, func() { srv.Compact(0); log.Print("compacted the history") })
	}
	if *closeEvery > 0 {
		go every(ctx, *closeEvery, func() { srv.CloseWatches(); log.Print("closed every watch") })
	}
	<-ctx.Done()
	log.Print("shutting down")
}

// every runs f every period until ctx ends.
func every(ctx context.Context, period time.Duration, f func()) {
	t := time.NewTicker(period)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			f()
		}
	}
}

// churnPods makes rate random changes per second to pods named churn-N
// until ctx ends: a missing pod is created; an existing one gets a new label
// or is deleted, at random.
func churnPods(ctx context.Context, srv *fakeapi.Server, rate float64) {
	t := time.NewTicker(time.Duration(float64(time.Second) / rate))
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		name := fmt.Sprintf("churn-%d", rand.IntN(5))
		var err error
		switch _, getErr := srv.Get(fakeapi.Pods, "default", name); {
		case getErr != nil:
			_, err = srv.Create(fakeapi.Pods, "default", pod(name))
		case rand.IntN(2) == 0:
			p := pod(name)
			p["metadata"].(map[string]any)["labels"].(map[string]any)["tick"] = fmt.Sprint(time.Now().UnixNano())
			_, err = srv.Update(fakeapi.Pods, "default", p)
		default:
			err = srv.Delete(fakeapi.Pods, "default", name)
		}
		if err != nil {
			log.Printf("churn: %v", err)
		}
	}
}

// pod is a minimal pod with label app=demo.
func pod(name string) map[string]any {
	return map[string]any{
		"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{"name": name, "labels": map[string]any{"app": "demo"}},
		"spec": map[string]any{"containers": []any{
			map[string]any{"name": "main", "image": "busybox"},
		}},
	}
}
