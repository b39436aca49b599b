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
