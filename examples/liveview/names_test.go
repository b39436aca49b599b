// names_test.go checks that the page names only what exists: every Go file
// its guide and panels send a reader to, and every Step of the walkthrough
// they point at. Files move between readings; the page must follow.

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestPageNamesFilesAndStepsThatExist(t *testing.T) {
	root := filepath.Join("..", "..")
	var steps strings.Builder
	tests, _ := filepath.Glob(filepath.Join(root, "*_test.go"))
	for _, f := range tests {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		steps.Write(data)
	}
	goFile := regexp.MustCompile(`[a-z][a-z0-9_/]*\.go\b`)
	step := regexp.MustCompile(`Step(\d\d) ?([A-Z][A-Za-z]*)`)
	scripts, _ := filepath.Glob(filepath.Join("web", "*.js"))
	if len(scripts) == 0 {
		t.Fatal("no web/*.js")
	}
	for _, script := range scripts {
		data, err := os.ReadFile(script)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range goFile.FindAllString(string(data), -1) {
			found := false
			for _, dir := range []string{root, ".", filepath.Join(root, "fakeapi")} {
				if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
					found = true
				}
			}
			if !found {
				t.Errorf("%s names %s, which does not exist", script, name)
			}
		}
		for _, m := range step.FindAllStringSubmatch(string(data), -1) {
			if !strings.Contains(steps.String(), "func TestStep"+m[1]+m[2]) {
				t.Errorf("%s names %s, but no test is TestStep%s%s", script, m[0], m[1], m[2])
			}
		}
	}
}
