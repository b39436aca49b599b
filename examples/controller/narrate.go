// narrate.go is how the program speaks: the story's lines, the
// controller's events and its log lines, one whole line each (workers
// report from their own goroutines), in the reader's language by the
// walkthrough's rule (LANG=zh_CN.UTF-8 or INFORMER_LANG=zh for Chinese).
//
// client-go counterpart: record.EventRecorder's Eventf (k8s.io/client-go
// tools/record), which the narrator implements by printing the event, and
// klog's structured lines, which it prints from log/slog.
//
// Tutorial: 004 §2.3 (what the processor behind the informer does, told as
// it happens).

package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"

	informer "github.com/learn-k8s/informer"
	"github.com/learn-k8s/informer/internal/walkthrough"
)

// narrator writes lines to w, in Chinese when zh is set. Its mutex keeps
// lines whole.
type narrator struct {
	mu sync.Mutex
	w  io.Writer
	zh bool
	// waits counts the syncs that found a cache older than the
	// controller's own last write (a ConsistencyError), and gone those whose
	// ReplicaSet was deleted under them (its status write answered
	// NotFound): both depend on the scheduler, and are retried as
	// kube-controller-manager retries them, so they are counted, not printed.
	waits, gone int
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

// eventsZH is the Chinese of each event's message, by reason; the
// arguments are the same. (Server messages inside them stay English: they
// are what the server sent.)
var eventsZH = map[string]string{
	"SuccessfulCreate": "已创建 Pod：%v",
	"SuccessfulDelete": "已删除 Pod：%v",
	"FailedCreate":     "创建出错：%v",
	"FailedDelete":     "删除出错：%v",
	"SyncFailed":       "同步失败（第 %d 次），退避后重试：%v",
	"BadKey":           "已丢弃：%v",
	"BadObject":        "不是 ReplicaSet：%T",
	"BadSelector":      "%v",
}

// Eventf prints one event of the controller as
// "15:04:05.000  default/web  SuccessfulCreate  Created pod: web-x7k2p".
func (n *narrator) Eventf(key, eventType, reason, messageFmt string, args ...any) {
	if reason == "SyncFailed" && len(args) == 2 {
		var ce *ConsistencyError
		if err, ok := args[1].(error); ok && (errors.As(err, &ce) || informer.IsNotFound(err)) {
			n.mu.Lock()
			if ce != nil {
				n.waits++
			} else {
				n.gone++
			}
			n.mu.Unlock()
			return
		}
	}
	if zh, ok := eventsZH[reason]; ok && n.zh {
		messageFmt = zh
	}
	now := time.Now().Format("15:04:05.000")
	message := fmt.Sprintf(messageFmt, args...)
	n.say("%s  %-12s %s %s", "%s  %-12s %s %s", now, key, padColumns(reason, 17), message)
}

// padColumns pads s with spaces to width terminal columns: a Chinese
// character takes two, so fmt's %-17s would leave its column ragged.
func padColumns(s string, width int) string {
	return s + strings.Repeat(" ", max(0, width-walkthrough.Columns(s)))
}

// retries returns how many syncs so far waited for a cache, and how many
// found their ReplicaSet deleted under them.
func (n *narrator) retries() (waits, gone int) {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.waits, n.gone
}

// logZH is the Chinese of each log message the controller writes.
var logZH = map[string]string{
	"Too few replicas":  "副本太少",
	"Too many replicas": "副本太多",
	"Adopting pod":      "收养 Pod",
	"Releasing pod":     "释放 Pod",
}

// logger returns a logger that prints the controller's log lines as
// "15:04:05.000  default/web  Too few replicas  need=3 creating=3".
func (n *narrator) logger() *slog.Logger { return slog.New(narratorHandler{n}) }

// narratorHandler is the slog.Handler of narrator.logger.
type narratorHandler struct{ n *narrator }

func (h narratorHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h narratorHandler) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h narratorHandler) WithGroup(string) slog.Handler            { return h }

func (h narratorHandler) Handle(_ context.Context, r slog.Record) error {
	key := ""
	var attrs []string
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "replicaSet" {
			key = a.Value.String()
		} else {
			attrs = append(attrs, a.Key+"="+a.Value.String())
		}
		return true
	})
	msg := r.Message
	if zh, ok := logZH[msg]; ok && h.n.zh {
		msg = zh
	}
	now := r.Time.Format("15:04:05.000")
	h.n.say("%s  %-12s %s %s", "%s  %-12s %s %s", now, key, padColumns(msg, 17), strings.Join(attrs, " "))
	return nil
}
