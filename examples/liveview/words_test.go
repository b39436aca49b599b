// words_test.go checks the page's Chinese where a browser need not run:
// one rule for list and watch, kept as the API's own verbs as the
// Kubernetes Chinese docs keep them (docs/glossary.zh-CN.md), in the page,
// its scenes, its chapter and the glossary; and every wait of a scene
// named in both languages, so that a step that did not finish says why in
// the reader's language (issue 30, defect 8).

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// chineseStrings returns the string literals of a JavaScript file that
// hold Chinese.
func chineseStrings(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, lit := range regexp.MustCompile(`"(?:[^"\\\n]|\\.)*"`).FindAllString(string(data), -1) {
		if regexpHan.MatchString(lit) {
			out = append(out, lit)
		}
	}
	return out
}

var regexpHan = regexp.MustCompile(`\p{Han}`)

func TestChineseKeepsListAndWatch(t *testing.T) {
	// list and watch are written as they are: no 监视 nor 列表请求 for them,
	// and list in lower case next to Chinese (LIST is the request's name).
	bad := regexp.MustCompile(`监视|列表请求|\p{Han} ?List\b|\bList ?\p{Han}`)
	var texts []string
	for _, f := range []string{"i18n_zh.js", "scenes.js", "prepare.js", "guide.js"} {
		texts = append(texts, chineseStrings(t, filepath.Join("web", f))...)
	}
	for _, f := range []string{"liveview.zh-CN.md", "glossary.zh-CN.md"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "docs", f))
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, strings.Split(string(data), "\n")...)
	}
	for _, s := range texts {
		if m := bad.FindString(s); m != "" {
			t.Errorf("%q in %s", m, s)
		}
	}
}

func TestScenesNameTheirWaitsInBothLanguages(t *testing.T) {
	englishOnly := regexp.MustCompile(`\b(?:see|seen|state|until)\(\s*"`)
	for _, f := range []string{"scenes.js", "prepare.js", "guide.js"} {
		data, err := os.ReadFile(filepath.Join("web", f))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			if englishOnly.MatchString(line) {
				t.Errorf("web/%s:%d names a wait in English only: %s", f, i+1, strings.TrimSpace(line))
			}
		}
	}
}

// glossaryRows reads the table of a glossary in docs/: each row's cells.
func glossaryRows(t *testing.T, name string) [][]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", name))
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]string
	for _, line := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "|---") {
			continue
		}
		rows = append(rows, strings.Split(strings.Trim(line, "| "), " | "))
	}
	return rows[1:] // the header
}

// TestPageTermsAreTheGlossarys: every term the page explains (web/terms.js)
// is a row of the book's glossary, in English and in Chinese (issue 38:
// every term on the page links to the glossary), and the page's Chinese
// word for it is the glossary's.
func TestPageTermsAreTheGlossarys(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("web", "terms.js"))
	if err != nil {
		t.Fatal(err)
	}
	en, zh := glossaryRows(t, "glossary.md"), glossaryRows(t, "glossary.zh-CN.md")
	if len(en) != len(zh) {
		t.Fatalf("the glossary has %d rows in English, %d in Chinese", len(en), len(zh))
	}
	entry := regexp.MustCompile(`\{id: "([^"]+)", glossary: "([^"]+)",\s*\n\s*en: \{names: \[[^\]]*\][^\n]*\n\s*zh: \{names: \["([^"]+)"`)
	terms := entry.FindAllStringSubmatch(string(data), -1)
	if len(terms) < 30 {
		t.Fatalf("web/terms.js: %d terms read; is the pattern still the file's?", len(terms))
	}
	brackets := regexp.MustCompile(`（[^）]*）|\x60`)
	for _, m := range terms {
		id, term, word := m[1], m[2], m[3]
		row := slices.IndexFunc(en, func(r []string) bool { return r[0] == term })
		if row < 0 {
			t.Errorf("term %s: %q is no row of docs/glossary.md", id, term)
			continue
		}
		words := strings.Split(brackets.ReplaceAllString(zh[row][0], ""), "、")
		if !slices.Contains(words, word) {
			t.Errorf("term %s: the page writes %q in Chinese, the glossary's row %d writes %q", id, word, row+1, zh[row][0])
		}
	}
}

// TestOneWordPerConcept: the page and its chapter write each concept with
// the glossary's Chinese word, never another (issue 38: 增量 in the
// narration but Delta in the panels, 线路 for the wire).
func TestOneWordPerConcept(t *testing.T) {
	var texts []string
	scripts, _ := filepath.Glob(filepath.Join("web", "*.js"))
	for _, f := range scripts {
		texts = append(texts, chineseStrings(t, f)...)
	}
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "liveview.zh-CN.md"))
	if err != nil {
		t.Fatal(err)
	}
	texts = append(texts, strings.Split(string(data), "\n")...)
	// others are the words the glossary's word replaces; an entry's
	// exceptions are longer words that hold it and mean something else.
	others := []struct {
		word, concept string
		except        []string
	}{
		{"增量", "Delta", nil},
		{"线路", "网络上传输的内容 (the wire)", nil},
		{"线上", "网络上传输的内容 (the wire)", []string{"流水线上"}},
		{"处理程序", "事件处理器", nil},
		{"处理函数", "事件处理器", nil},
		{"处理器", "事件处理器", []string{"事件处理器"}},
		{"回退", "退避", nil},
		{"再同步", "重新同步", []string{"重新同步"}},
		{"重新列出", "重新 list", nil},
		{"压实", "压缩", nil},
		{"版本号", "资源版本", nil},
	}
	for _, s := range texts {
		for _, o := range others {
			rest := s
			for _, e := range o.except {
				rest = strings.ReplaceAll(rest, e, "")
			}
			if strings.Contains(rest, o.word) {
				t.Errorf("%q for %s in %s", o.word, o.concept, s)
			}
		}
	}
}
