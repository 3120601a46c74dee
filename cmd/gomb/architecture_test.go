package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// layoutEntry is a line of docs/architecture.md's layout block that names
// a folder: the path at the start of the line, ending in '/'.
var layoutEntry = regexp.MustCompile(`(?m)^([a-z][a-z0-9_./-]*/)`)

// TestArchitectureLayout holds docs/architecture.md's layout to the tree:
// every folder it names exists; every folder of Go code is named, at the
// start of a line or, below a named folder, as "name/" in its
// description; every C file of internal/mpi is named.
func TestArchitectureLayout(t *testing.T) {
	root := filepath.Join("..", "..")
	data, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	i := strings.Index(doc, "## Layout")
	if i < 0 {
		t.Fatal("docs/architecture.md has no Layout section")
	}
	parts := strings.SplitN(doc[i:], "```", 3)
	if len(parts) < 3 {
		t.Fatal("the Layout section has no code block")
	}
	block := parts[1]
	named := map[string]bool{}
	for _, m := range layoutEntry.FindAllStringSubmatch(block, -1) {
		dir := strings.TrimSuffix(m[1], "/")
		named[dir] = true
		if st, err := os.Stat(filepath.Join(root, dir)); err != nil || !st.IsDir() {
			t.Errorf("the layout names %s/, which is no folder", dir)
		}
	}
	covered := func(dir string) bool {
		for d := dir; d != "."; d = filepath.Dir(d) {
			if named[d] {
				return d == dir || strings.Contains(block, strings.TrimPrefix(dir, d+"/")+"/")
			}
		}
		return false
	}
	skip := map[string]bool{".git": true, "bin": true, "dist": true, "out": true, "peers": true, "node_modules": true, "testdata": true}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (skip[d.Name()] || strings.HasPrefix(d.Name(), ".") && path != root) {
			return filepath.SkipDir
		}
		if d.IsDir() || filepath.Ext(path) != ".go" {
			return nil
		}
		dir, _ := filepath.Rel(root, filepath.Dir(path))
		if !covered(dir) {
			t.Errorf("%s/ holds Go code but docs/architecture.md's layout does not name it", dir)
			named[dir] = true // once
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	cs, _ := filepath.Glob(filepath.Join(root, "internal", "mpi", "*.c"))
	for _, c := range cs {
		if !strings.Contains(block, filepath.Base(c)) {
			t.Errorf("the layout does not name internal/mpi/%s", filepath.Base(c))
		}
	}
}
