// Package suites holds the acceptance suites gomb ships (docs/suite.md):
// suite files that `gomb suite plan|run|report` take by name as well as
// by path.
package suites

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
)

//go:embed *.yaml
var files embed.FS

// Open returns a shipped suite's file by name ("osu-crossroads", or
// "osu-crossroads.yaml") and the path it has in the source tree.
func Open(name string) ([]byte, string, bool) {
	base := strings.TrimSuffix(name, ".yaml") + ".yaml"
	if strings.Contains(base, "/") {
		return nil, "", false
	}
	b, err := files.ReadFile(base)
	if err != nil {
		return nil, "", false
	}
	return b, "suites/" + base, true
}

// Names are the shipped suites' names, sorted.
func Names() []string {
	ents, _ := fs.ReadDir(files, ".")
	var out []string
	for _, e := range ents {
		out = append(out, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	sort.Strings(out)
	return out
}
