// blocks.go splits a Markdown file into its fenced blocks and reads the
// markers (HTML comments) written right before each one. It has no client-go
// counterpart and teaches no tutorial section.

package main

import (
	"os"
	"regexp"
	"strings"
)

// A block is one fenced block of a Markdown file.
type block struct {
	file    string   // the Markdown file, relative to the repository
	line    int      // the line of the opening fence (1-based)
	lang    string   // the info string's first word: "sh", "text", "" ...
	indent  string   // the opening fence's indentation, kept on -update
	body    []string // the lines between the fences, indentation removed
	first   int      // index in the file's lines of body[0]
	section int      // how many headings come before it: a heading ends a section
	markers markers
}

// markers are the HTML comments on the lines right before a fence, such as
// <!-- not run: it needs a cluster --> or <!-- output of: go test ./... -->.
type markers struct {
	notRun string // "not run": why the block is not run or compared
	needs  string // "needs": what must be present, or the block is skipped
	with   string // "with": a server to start before the block and stop after it
	// "background": the block's commands run until Ctrl-C, each as if in a
	// terminal of its own (the value names the terminal, for the reader);
	// they are stopped when the section ends.
	background string
	waitFor    string // "wait for": a background command goes on once it prints a line this matches
	outputOf   string // "output of": the command whose output the block shows
	lines      string // "lines": which lines of that output the block shows
	// "unordered": a regular expression; the lines it matches are printed
	// by a goroutine at moments the scheduler picks, so they are compared
	// as a set, apart from the others.
	unordered string
	columns   string // "columns": each line is shown cut to this many characters
	// "varies": a regular expression for what changes from run to run in
	// this sample only (a counter of a program that runs on its own clock);
	// it (its first group, if it has one) is not compared.
	varies string
}

// headingRE is a Markdown heading outside a fence: it ends a section.
var headingRE = regexp.MustCompile(`^#{1,6} `)

var markerRE = regexp.MustCompile(`^<!--\s*(not run|needs|with|background|wait for|output of|lines|unordered|columns|varies):\s*(.*?)\s*-->$`)

// commandLangs are the info strings of blocks that hold commands to run;
// sampleLangs those of blocks that hold what a command prints. Other blocks
// (go, yaml, mermaid ...) are listings: neither run nor compared.
var (
	commandLangs = map[string]bool{"sh": true, "bash": true, "shell": true}
	sampleLangs  = map[string]bool{"": true, "text": true, "console": true, "json": true}
)

// parseBlocks returns the file's lines and its fenced blocks.
func parseBlocks(file string) ([]string, []block, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, nil, err
	}
	lines := strings.Split(string(data), "\n")
	var blocks []block
	section := 0
	for i := 0; i < len(lines); i++ {
		t := strings.TrimLeft(lines[i], " ")
		if headingRE.MatchString(lines[i]) {
			section++
		}
		if !strings.HasPrefix(t, "```") {
			continue
		}
		b := block{file: file, line: i + 1, indent: lines[i][:len(lines[i])-len(t)], first: i + 1, section: section}
		if f := strings.Fields(strings.TrimPrefix(t, "```")); len(f) > 0 {
			b.lang = f[0]
		}
		b.markers = markersBefore(lines, i)
		j := i + 1
		for ; j < len(lines) && strings.TrimSpace(lines[j]) != "```"; j++ {
			b.body = append(b.body, strings.TrimPrefix(lines[j], b.indent))
		}
		blocks = append(blocks, b)
		i = j
	}
	return lines, blocks, nil
}

// markersBefore reads the marker comments on the lines right above line i
// (blank lines between them are allowed).
func markersBefore(lines []string, i int) markers {
	var m markers
	for k := i - 1; k >= 0; k-- {
		t := strings.TrimSpace(lines[k])
		if t == "" {
			continue
		}
		g := markerRE.FindStringSubmatch(t)
		if g == nil {
			break
		}
		switch g[1] {
		case "not run":
			m.notRun = g[2]
		case "needs":
			m.needs = g[2]
		case "with":
			m.with = g[2]
		case "background":
			m.background = g[2]
		case "wait for":
			m.waitFor = g[2]
		case "columns":
			m.columns = g[2]
		case "varies":
			m.varies = g[2]
		case "output of":
			m.outputOf = g[2]
		case "lines":
			m.lines = g[2]
		case "unordered":
			m.unordered = g[2]
		}
	}
	return m
}

// heredocRE is a here-document's start: cat > pod.yaml <<'EOF'.
var heredocRE = regexp.MustCompile(`<<-?\s*'?"?(\w+)'?"?\s*$`)

// commands joins a command block's lines into commands: a line ending in a
// backslash continues on the next, a here-document (<<'EOF') runs to its
// closing word; blank lines and comment lines are dropped.
func commands(body []string) []string {
	var cmds []string
	cur := ""
	for i := 0; i < len(body); i++ {
		l := body[i]
		if cur == "" && (strings.TrimSpace(l) == "" || strings.HasPrefix(strings.TrimSpace(l), "#")) {
			continue
		}
		if strings.HasSuffix(l, "\\") {
			cur += strings.TrimSuffix(l, "\\") + " "
			continue
		}
		cmd := strings.TrimSpace(cur + l)
		if g := heredocRE.FindStringSubmatch(l); g != nil {
			for i++; i < len(body); i++ {
				cmd += "\n" + body[i]
				if body[i] == g[1] {
					break
				}
			}
		}
		cmds = append(cmds, cmd)
		cur = ""
	}
	if cur != "" {
		cmds = append(cmds, strings.TrimSpace(cur))
	}
	return cmds
}
