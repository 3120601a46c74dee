package osu

import (
	"fmt"
	"strings"
)

// Suites are the words that name several tests at once, as OSU's launcher
// groups them: gomb osu pt2pt runs every point-to-point test in one job.
// gomb's own oneway is in none of them.
var Suites = []string{"pt2pt", "collective", "one-sided", "startup", "all"}

// inSuite reports whether s belongs to suite.
func inSuite(s *Spec, suite string) bool {
	if strings.HasPrefix(s.Title, "gomb") {
		return false
	}
	switch suite {
	case "pt2pt":
		return s.Kind == Latency || s.Kind == Bandwidth || s.Kind == MsgRate
	case "collective":
		return s.Kind == Collective || s.Kind == NonBlocking
	case "one-sided":
		return s.Kind == RMALatency || s.Kind == RMABandwidth
	case "startup":
		return s.Kind == Startup
	case "all":
		return true
	}
	return false
}

// IsSuite reports whether word names a suite.
func IsSuite(word string) bool {
	for _, s := range Suites {
		if strings.EqualFold(word, s) {
			return true
		}
	}
	return false
}

// Select is the tests the words name, in order, each once: test names
// (with or without "osu_") and suite words, which add their tests in
// Specs' order.
func Select(words []string) ([]*Spec, error) {
	var out []*Spec
	seen := map[string]bool{}
	add := func(s *Spec) {
		if !seen[s.Name] {
			seen[s.Name] = true
			out = append(out, s)
		}
	}
	for _, w := range words {
		if IsSuite(w) {
			for _, s := range Specs() {
				if inSuite(s, strings.ToLower(w)) {
					add(s)
				}
			}
			continue
		}
		s, ok := Lookup(w)
		if !ok {
			return nil, fmt.Errorf("unknown test %q ('gomb osu -list' shows the tests; suites: %s)", w, strings.Join(Suites, ", "))
		}
		add(s)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no test named ('gomb osu -list' shows them)")
	}
	return out, nil
}
