package imbrun

import (
	"testing"

	"github.com/gomb-hpc/gomb/result"
)

// TestGroupsLocality: a -multi 0 row over several groups is classified by
// the groups, each of which talks only within itself.
func TestGroupsLocality(t *testing.T) {
	two := []string{"h1", "h1", "h2", "h2"} // 2 ranks per host
	for _, c := range []struct {
		name   string
		hosts  []string
		groups [][]int
		want   string
	}{
		{"pairs within hosts", two, [][]int{{0, 1}, {2, 3}}, result.IntraNode},
		{"pairs across hosts (-map 2x2)", two, [][]int{{0, 2}, {1, 3}}, result.InterNode},
		{"one pair of each", []string{"h1", "h1", "h1", "h2"}, [][]int{{0, 1}, {2, 3}}, result.Mixed},
		{"no hosts known", nil, [][]int{{0, 1}}, ""},
	} {
		e := &Engine{Hosts: c.hosts}
		if got := e.groupsLocality(c.groups); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
