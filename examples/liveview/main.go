// Command liveview shows an informer at work, live, in a web page: the API
// server's objects and history, the wire (lists, watches, events), the
// DeltaFIFO, the cache with its indexes, and the handlers with their
// backlogs, with buttons that change pods and break things on purpose, and
// a step mode that Pops one item per click, and guided scenes that tell the
// walkthrough's stories on it, one narrated step at a time.
//
//	go run ./examples/liveview
//
// prints a loopback URL to open. Everything runs in this one process
// (fakeapi, the informer, the page's server); the page is plain HTML, CSS
// and JavaScript served from the binary, so it works offline.
//
// client-go counterpart: none.
// Tutorial: 004 §2 (the pipeline), 000 §4 (when things go wrong).
package main

import (
	"context"
	"flag"
	"fmt"
	"github.com/learn-k8s/informer/internal/walkthrough"
	"os"
	"os/signal"
	"time"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address of the page (loopback only)")
	bookmarks := flag.Duration("bookmarks", 10*time.Second, "how often fakeapi sends BOOKMARK events")
	resync := flag.Duration("resync", 0, "the informer's resync period; 0: none (the page can set one)")
	pods := flag.Int("pods", 3, "pods created before the informer starts")
	queue := flag.String("queue", "RealFIFO", "the informer's queue: RealFIFO (client-go v0.37.2's default) or DeltaFIFO (client-go ≤1.32, as the tutorial teaches first); the page switches too")
	flag.Parse()

	a, err := start(config{Addr: *addr, BookmarkInterval: *bookmarks, ResyncPeriod: *resync, Pods: *pods, Queue: *queue})
	if err != nil {
		fmt.Fprintln(os.Stderr, "liveview:", err)
		os.Exit(1)
	}
	if walkthrough.Language() == "zh" { // the walkthrough's language rule: LANG=zh_CN.UTF-8, INFORMER_LANG=zh
		// The page follows the browser's language; a reader who asked the
		// terminal for Chinese gets the address that asks the page for it.
		fmt.Printf("liveview：在浏览器里打开 %s?lang=zh（Ctrl-C 停止）\n", a.URL())
	} else {
		fmt.Println("liveview: open", a.URL(), "(Ctrl-C stops)")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	<-ctx.Done()
	a.Close()
}
