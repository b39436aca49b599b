// Command fakeapi runs the fake Kubernetes API server on its own, so you can
// look at the List/Watch protocol with curl and kubectl:
//
//	go run ./fakeapi/cmd/fakeapi -seed 3 -churn 1
//	curl -s localhost:8080/api/v1/namespaces/default/pods
//	curl -sN 'localhost:8080/api/v1/namespaces/default/pods?watch=1'
//	kubectl --server http://localhost:8080 get pods -w
//
// Flags: -addr (default 127.0.0.1:8080), -seed N sample pods, -churn R random
// changes per second, -history N events kept, -token T to require a bearer
// token, -bookmark D bookmark period, -quiet to stop the request log.
// client-go counterpart: none; it stands in for kube-apiserver.
// Tutorial: 000 §2.5 (see the wire protocol for yourself).
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
	flag.Parse()

	opts := fakeapi.Options{Addr: *addr, Token: *token, History: *history, BookmarkInterval: *bookmark}
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
	log.Printf("fake API server on %s (resourceVersion %s); try: kubectl --server %s get pods",
		srv.URL(), srv.ResourceVersion(), srv.URL())

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *churn > 0 {
		go churnPods(ctx, srv, *churn)
	}
	<-ctx.Done()
	log.Print("shutting down")
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
