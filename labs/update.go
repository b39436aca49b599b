// update.go brings a teacher's course repository up to the kit:
// `go run ./labs course -update DIR` rewrites DIR, a course repository
// made by `labs course` and published to the class, with what the kit
// writes today (graders, handouts, the labs command, the given code), as
// one new commit. Learners take it with `git pull`: it touches only what
// they did not write, since in the course repository every lab function is
// still a stub. It refuses a repository in which any lab function is not
// a stub (a learner's), and one with uncommitted changes.
//
// client-go counterpart: none (tooling for the labs).
//
// Tutorial: none; it serves every lab.

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// updateCourse rewrites the course repository repo with the kit's files
// and commits the difference.
func updateCourse(repo string) error {
	zh := readerChinese()
	if _, err := os.Stat(filepath.Join(repo, "lab_kit_test.go")); err != nil {
		return fmt.Errorf("course -update: %s is not a course repository (no lab_kit_test.go)", repo)
	}
	if !haveGit() {
		return fmt.Errorf("course -update needs the git command")
	}
	if _, err := git(repo, "rev-parse", "HEAD"); err != nil {
		return fmt.Errorf("course -update: %s is not a git repository with a commit: %v", repo, err)
	}
	if hasChanges(repo) {
		return fmt.Errorf("course -update: %s has uncommitted changes: commit or remove them first", repo)
	}
	states, err := repoLabs(repo)
	if err != nil {
		return err
	}
	var written []string
	for _, s := range states {
		for _, f := range s.Written {
			written = append(written, fmt.Sprintf("lab %d %s", s.Lab.N, f))
		}
	}
	if len(written) > 0 {
		return fmt.Errorf("course -update: %s holds code that is not a stub (%s): it is a learner's repository;"+
			" update the course repository you publish, and learners pull from it", repo, strings.Join(written, ", "))
	}
	root, err := projectRoot()
	if err != nil {
		return err
	}
	files, err := buildTree(root, 1)
	if err != nil {
		return err
	}
	tracked, err := git(repo, "ls-files", "-z")
	if err != nil {
		return err
	}
	for _, name := range strings.Split(tracked, "\x00") {
		if name != "" {
			if err := os.Remove(filepath.Join(repo, filepath.FromSlash(name))); err != nil && !os.IsNotExist(err) {
				return err
			}
		}
	}
	for name, b := range files {
		p := filepath.Join(repo, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			return err
		}
	}
	if _, err := git(repo, "add", "-A"); err != nil {
		return err
	}
	if st, _ := git(repo, "status", "--porcelain"); st == "" {
		fmt.Println(pick(zh, repo+": already what this kit writes; nothing to commit", repo+"：已经是本工具包生成的内容，无需提交"))
		return nil
	}
	msg := "Course update"
	if v := kitVersion(root); v != "" {
		msg += " (kit " + v + ")"
	}
	if _, err := git(repo, "commit", "-q", "--no-verify", "-m", msg); err != nil {
		return err
	}
	stat, _ := git(repo, "diff", "--shortstat", "HEAD~1", "HEAD")
	fmt.Println(pick(zh, fmt.Sprintf("%s: committed %q:%s; push it, and learners take it with git pull", repo, msg, stat),
		fmt.Sprintf("%s：已提交 %q：%s；推送之后，学生用 git pull 获取", repo, msg, stat)))
	return nil
}
