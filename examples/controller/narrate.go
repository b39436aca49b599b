// narrate.go is how the program speaks: the story's lines and the
// controller's events, one whole line each (workers report from their own
// goroutines), in the reader's language by the walkthrough's rule
// (LANG=zh_CN.UTF-8 or INFORMER_LANG=zh for Chinese).
//
// client-go counterpart: record.EventRecorder's Eventf (k8s.io/client-go
// tools/record), which the narrator implements by printing the event.
//
// Tutorial: 004 §2.3 (what the processor behind the informer does, told as
// it happens).

package main

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// narrator writes lines to w, in Chinese when zh is set. Its mutex keeps
// lines whole.
type narrator struct {
	mu sync.Mutex
	w  io.Writer
	zh bool
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
	"SuccessfulCreate": "已创建 Pod：%s",
	"SuccessfulDelete": "已删除 Pod：%s",
	"FailedCreate":     "创建出错：%v",
	"FailedDelete":     "删除出错：%v",
	"SyncFailed":       "同步失败（第 %d 次），退避后重试：%v",
	"BadKey":           "已丢弃：%v",
	"BadObject":        "无法生成键：%v",
}

// Eventf prints one event of the controller as
// "15:04:05.000  default/web  SuccessfulCreate  Created pod: web-0".
func (n *narrator) Eventf(key, eventType, reason, messageFmt string, args ...any) {
	if zh, ok := eventsZH[reason]; ok && n.zh {
		messageFmt = zh
	}
	now := time.Now().Format("15:04:05.000")
	n.say("%s  %-12s %-17s %s", "%s  %-12s %-17s %s", now, key, reason, fmt.Sprintf(messageFmt, args...))
}
