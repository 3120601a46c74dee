//go:build cgo

package mpi

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/gomb-hpc/gomb/internal/kernel"
)

// TestEnumsCovered: every enumerator of the C headers' enumerations (gomb.h
// and each suite's) is checked against its Go name in ids.go (whose build
// then fails on a difference in value), and gomb.h includes every suite's
// header.
func TestEnumsCovered(t *testing.T) {
	headers, err := filepath.Glob("*.h")
	if err != nil || len(headers) < 2 {
		t.Fatalf("headers: %v %v", headers, err)
	}
	gombH := readFile(t, "gomb.h")
	var h string
	for _, f := range headers {
		text := readFile(t, f)
		h += text
		// a suite's header is part of gomb.h (it includes nothing); the
		// kernels' private headers (loops.h, pair.h, ...) build on it
		if f != "gomb.h" && !strings.Contains(text, `#include "`) && !strings.Contains(gombH, `#include "`+f+`"`) {
			t.Errorf("gomb.h does not include %s", f)
		}
	}
	ids := readFile(t, "ids.go")
	checked := map[string]bool{}
	for _, m := range regexp.MustCompile(`C\.(GOMB_\w+)`).FindAllStringSubmatch(ids, -1) {
		checked[m[1]] = true
	}
	var enumerators []string
	for _, body := range regexp.MustCompile(`(?s)enum\s*\w*\s*\{(.*?)\}`).FindAllStringSubmatch(stripComments(h), -1) {
		for _, m := range regexp.MustCompile(`\b(GOMB_\w+)\b`).FindAllStringSubmatch(body[1], -1) {
			enumerators = append(enumerators, m[1])
		}
	}
	for _, prefix := range []string{"GOMB_K_", "GOMB_DT_", "GOMB_SRC_", "GOMB_BUF_", "GOMB_RMA_", "GOMB_WIN_", "GOMB_SYNC_", "GOMB_NBC_"} {
		if !slices.ContainsFunc(enumerators, func(e string) bool { return strings.HasPrefix(e, prefix) }) {
			t.Errorf("the headers have no enumerator %s*", prefix)
		}
	}
	for _, e := range enumerators {
		if !checked[e] {
			t.Errorf("enumerator %s has no Go name checked in ids.go", e)
		}
	}
}

// TestDispatchTable: gomb_run has a family for every kernel Go can ask for.
func TestDispatchTable(t *testing.T) {
	for k := kernel.None + 1; k < kernel.Count; k++ {
		if !dispatched(k) {
			t.Errorf("kernel %d: no entry in dispatch.c's table", k)
		}
	}
	if dispatched(kernel.None) || dispatched(kernel.Count) {
		t.Error("dispatch.c answers for a kernel id out of range")
	}
}

// TestCFilesCallNoCircle: the C files call each other one way only (job.c
// at the bottom, dispatch.c and validate.c at the top), so that no file
// depends on one that depends on it.
func TestCFilesCallNoCircle(t *testing.T) {
	files, err := filepath.Glob("*.c")
	if err != nil || len(files) == 0 {
		t.Fatalf("no C files: %v", err)
	}
	def := regexp.MustCompile(`(?m)^[a-zA-Z_][\w \*]*?\b(gomb_\w+)\s*\([^;]*\)\s*\{`)
	call := regexp.MustCompile(`\b(gomb_\w+)\s*\(`)
	defines := map[string]string{} // function -> file
	texts := map[string]string{}
	for _, f := range files {
		texts[f] = stripComments(readFile(t, f))
		for _, m := range def.FindAllStringSubmatch(texts[f], -1) {
			defines[m[1]] = f
		}
	}
	calls := map[string][]string{} // file -> files it calls
	for _, f := range files {
		for _, m := range call.FindAllStringSubmatch(texts[f], -1) {
			if g, ok := defines[m[1]]; ok && g != f && !slices.Contains(calls[f], g) {
				calls[f] = append(calls[f], g)
			}
		}
	}
	if len(calls) < 4 || len(calls["imb_mpi1.c"]) == 0 {
		t.Fatalf("the call graph was not read: %v", calls) // the regexps went blind
	}
	// depth-first search for a cycle
	state := map[string]int{} // 0 new, 1 on the path, 2 done
	var path []string
	var visit func(f string)
	visit = func(f string) {
		state[f] = 1
		path = append(path, f)
		for _, g := range calls[f] {
			switch state[g] {
			case 1:
				i := slices.Index(path, g)
				t.Errorf("C files call in a circle: %s -> %s", strings.Join(path[i:], " -> "), g)
			case 0:
				visit(g)
			}
		}
		path = path[:len(path)-1]
		state[f] = 2
	}
	for _, f := range files {
		if state[f] == 0 {
			visit(f)
		}
	}
}

// stripComments drops // and /* */ comments, so that prose naming a
// function is no call.
func stripComments(s string) string {
	s = regexp.MustCompile(`(?s)/\*.*?\*/`).ReplaceAllString(s, "")
	return regexp.MustCompile(`//[^\n]*`).ReplaceAllString(s, "")
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
