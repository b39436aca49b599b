// narrate.go is how podwatch speaks: one line per event or step, in the
// reader's language, whole lines only (handlers print from their own
// goroutines).
//
// client-go counterpart: none (it is the demo's voice).
//
// Tutorial: 004 §1 (kubectl apply → "ADD event for default/nginx-pod").

package main

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/learn-k8s/informer"
)

// readerLanguage picks "zh" or "en" by the rule the walkthrough's tests use:
// INFORMER_LANG decides if set; otherwise the first of LANGUAGE, LC_ALL,
// LC_MESSAGES and LANG that is set; Chinese when it starts with "zh".
func readerLanguage(getenv func(string) string) string {
	for _, name := range []string{"INFORMER_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"} {
		if v := getenv(name); v != "" {
			if strings.HasPrefix(strings.ToLower(v), "zh") {
				return "zh"
			}
			return "en"
		}
	}
	return "en"
}

// A narrator writes the story's lines to w, in Chinese when zh is set. Its
// mutex keeps lines whole: both handlers and the story print at once.
type narrator struct {
	mu     sync.Mutex
	w      io.Writer
	zh     bool
	resync bool // the informer resyncs: an unchanged object may come from a resync too
}

// say writes one line: en or zh, the same format taking the same arguments.
func (n *narrator) say(en, zh string, args ...any) {
	format := en
	if n.zh {
		format = zh
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	fmt.Fprintf(n.w, format+"\n", args...)
}

// blank writes an empty line between the story's steps.
func (n *narrator) blank() { n.say("", "") }

// event prints "time  handler  TYPE event for key  version V  (note)".
func (n *narrator) event(handler, typ string, obj any, relisted bool) {
	key, _ := informer.DeletionHandlingMetaNamespaceKeyFunc(obj)
	note, noteZh := "", ""
	if tomb, ok := obj.(informer.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
		note, noteZh = "(final state unknown: deleted while we were not watching)", "（最终状态未知：在没有 watch 时被删除）"
	} else if relisted && n.resync {
		note, noteZh = "(same version: re-delivered by a relist or a resync)", "（版本相同：重新 list 或重新同步时再次送达）"
	} else if relisted {
		note, noteZh = "(unchanged: re-delivered by a relist)", "（没有变化：重新 list 时再次送达）"
	}
	version := "?"
	if o, ok := obj.(informer.Object); ok {
		version = o.GetResourceVersion()
	}
	now := time.Now().Format("15:04:05.000")
	line := fmt.Sprintf("%s  %-4s  %-6s event for %-20s version %-4s %s", now, handler, typ, key, version, note)
	if n.zh {
		line = fmt.Sprintf("%s  %-4s  %-6s 事件：%-20s 版本 %-4s %s", now, handler, typ, key, version, noteZh)
	}
	n.say("%s", "%s", strings.TrimRight(line, " "))
}

// describePipeline says which pipeline the gates select, for the first lines.
func (n *narrator) describePipeline(g informer.PipelineGates) {
	if g.InOrderInformers {
		n.say("# pipeline: client-go v0.37.2's default: a RealFIFO (events in order, a relist as one ReplacedAll,",
			"# 流水线：client-go v0.37.2 的默认流水线：RealFIFO（事件按顺序；一次重新 list 是一个 ReplacedAll；")
		n.say("#   batches applied in one Transaction) fed by a streaming list; -pipeline=1.32 runs the tutorial's DeltaFIFO",
			"#   批量事件在一个 Transaction 里应用），由流式列表供给；-pipeline=1.32 改跑教程里的 DeltaFIFO")
		return
	}
	n.say("# pipeline: client-go 1.32's, as the tutorial teaches it: a DeltaFIFO (one entry per key), list then watch;",
		"# 流水线：client-go 1.32 的，也就是教程讲的：DeltaFIFO（每个键一个条目），先 list 再 watch；")
	n.say("#   without -pipeline it runs client-go v0.37.2's default (RealFIFO, streaming list)",
		"#   不加 -pipeline 时运行 client-go v0.37.2 的默认流水线（RealFIFO、流式列表）")
}
