// git.go is what the kit asks of git: a student repository starts as a git
// repository with one commit, the course as handed out, made by the kit's
// own author so that a learner's commits stand apart from it; a teacher's
// course repository takes the kit's updates as new commits
// (`labs course -update`); and grading reads which commit it grades, when
// it was made, who made it, and whether later commits came after a
// deadline, from a snapshot of that commit (git archive), never touching
// the student's working tree. Git is optional: without it a repository is
// written and graded as a plain folder.
//
// client-go counterpart: none (tooling for the labs).
//
// Tutorial: none; it serves every lab.

package main

import (
	"archive/tar"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// The author of the commits the kit makes: a learner's commits are the ones
// by anyone else.
const (
	kitAuthorName  = "informer labs"
	kitAuthorEmail = "labs@informer-course.invalid"
)

// git runs git in dir and returns its standard output, trimmed.
func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME="+kitAuthorName, "GIT_AUTHOR_EMAIL="+kitAuthorEmail,
		"GIT_COMMITTER_NAME="+kitAuthorName, "GIT_COMMITTER_EMAIL="+kitAuthorEmail, "LC_ALL=C")
	var out, errb bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(errb.String()))
	}
	return strings.TrimSpace(out.String()), nil
}

// haveGit reports whether the git command is there.
func haveGit() bool {
	_, err := exec.LookPath("git")
	return err == nil
}

// kitVersion names the kit's commit ("3f2a1c9", "3f2a1c9 with changes"),
// or "" when the kit is not a git repository.
func kitVersion(root string) string {
	head, err := git(root, "rev-parse", "--short", "HEAD")
	if err != nil {
		return ""
	}
	if st, err := git(root, "status", "--porcelain", "--untracked-files=no"); err == nil && st != "" {
		head += " with changes"
	}
	return head
}

// initRepo makes dir a git repository on branch main with one commit of
// everything in it, by the kit's author.
func initRepo(dir, message string) error {
	if _, err := git(dir, "init", "-q"); err != nil {
		return err
	}
	// -b main at init needs git 2.28; symbolic-ref works everywhere.
	if _, err := git(dir, "symbolic-ref", "HEAD", "refs/heads/main"); err != nil {
		return err
	}
	if _, err := git(dir, "add", "-A"); err != nil {
		return err
	}
	_, err := git(dir, "commit", "-q", "--no-verify", "-m", message)
	return err
}

// commitInfo is one commit of a student repository.
type commitInfo struct {
	Hash   string
	Time   time.Time
	Author string // the name of the author of the latest commit not the kit's; "" when none
	Email  string // that author's email
	Later  int    // commits after it on the branch (made after a deadline)
}

// gradedCommit returns the commit of repo to grade: HEAD, or with a
// deadline the last commit made before it (by its committer date), and how
// many commits came after that one.
func gradedCommit(repo string, deadline time.Time) (commitInfo, error) {
	var c commitInfo
	rev := "HEAD"
	if !deadline.IsZero() {
		h, err := git(repo, "rev-list", "-1", "--before="+deadline.Format(time.RFC3339), "HEAD")
		if err != nil {
			return c, err
		}
		if h == "" {
			return c, fmt.Errorf("no commit before %s", deadline.Format(time.RFC3339))
		}
		rev = h
	}
	line, err := git(repo, "log", "-1", "--format=%H%x09%cI", rev)
	if err != nil {
		return c, err
	}
	hash, when, _ := strings.Cut(line, "\t")
	c.Hash = hash
	c.Time, _ = time.Parse(time.RFC3339, when)
	if n, err := git(repo, "rev-list", "--count", hash+"..HEAD"); err == nil {
		c.Later, _ = strconv.Atoi(n)
	}
	authors, err := git(repo, "log", "--format=%an%x09%ae", hash)
	if err != nil {
		return c, err
	}
	for _, a := range strings.Split(authors, "\n") {
		name, email, _ := strings.Cut(a, "\t")
		if a != "" && email != kitAuthorEmail {
			c.Author, c.Email = name, email
			break
		}
	}
	return c, nil
}

// exportCommit writes the files of commit hash of repo into the empty
// directory to, as git archive gives them.
func exportCommit(repo, hash, to string) error {
	cmd := exec.Command("git", "-C", repo, "archive", "--format=tar", hash)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("git archive %s: %v: %s", hash, err, strings.TrimSpace(errb.String()))
	}
	tr := tar.NewReader(bytes.NewReader(out))
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		p := filepath.Join(to, filepath.FromSlash(h.Name))
		if !strings.HasPrefix(p, filepath.Clean(to)+string(filepath.Separator)) {
			continue // a name that leaves the folder: not a file of the repository
		}
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(p, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			b, err := io.ReadAll(tr)
			if err != nil {
				return err
			}
			if err := os.WriteFile(p, b, 0o644); err != nil {
				return err
			}
		}
	}
}

// hasChanges reports whether repo's working tree differs from its HEAD
// (untracked files included).
func hasChanges(repo string) bool {
	st, err := git(repo, "status", "--porcelain")
	return err == nil && st != ""
}
