package analysis

import (
	"strings"
	"testing"

	"github.com/gomb-hpc/gomb/result"
)

func TestOversubscribed(t *testing.T) {
	rk := func(rank int, host, cpus string) result.Rank { return result.Rank{Rank: rank, Host: host, CPUs: cpus} }
	cases := []struct {
		name  string
		ranks []result.Rank
		want  string // "" for no finding, else a piece of the summary
	}{
		{"two ranks, two cores", []result.Rank{rk(0, "a", "0-1"), rk(1, "a", "0-1")}, ""},
		{"bound one a core", []result.Rank{rk(0, "a", "0"), rk(1, "a", "1"), rk(2, "a", "2"), rk(3, "a", "3")}, ""},
		{"four unbound on two", []result.Rank{rk(0, "a", "0-1"), rk(1, "a", "0-1"), rk(2, "a", "0-1"), rk(3, "a", "0-1")},
			"4 ranks on a share 2 CPU(s) (0-1)"},
		{"two hosts, one full", []result.Rank{rk(0, "a", "0-7"), rk(1, "b", "0"), rk(2, "b", "1"), rk(3, "b", "0-1"), rk(4, "a", "0-7")},
			"3 ranks on b share 2 CPU(s) (0-1)"},
		{"bound to the same core", []result.Rank{rk(0, "a", "0"), rk(1, "a", "0"), rk(2, "a", "1-3")},
			"2 ranks on a share 1 CPU(s) (0)"},
		{"affinity unknown", []result.Rank{rk(0, "a", ""), rk(1, "a", ""), rk(2, "a", "")}, ""},
	}
	for _, c := range cases {
		f, ok := oversubscribed(c.ranks)
		if ok != (c.want != "") || ok && !strings.Contains(f.Summary, c.want) {
			t.Errorf("%s: %v %q, want %q", c.name, ok, f.Summary, c.want)
		}
	}
}

// TestIncomplete: a run gomb measured that did not finish is said to be
// incomplete, with its last result; an imported log (no end record to
// read) and a finished run are not.
func TestIncomplete(t *testing.T) {
	records := &result.Source{Format: result.RecordsFormat, File: "r.jsonl"}
	res := []*result.Result{{Benchmark: "PingPong", Bytes: 0, NP: 2}, {Benchmark: "PingPong", Bytes: 4096, NP: 2}}
	cases := []struct {
		name string
		src  *result.Source
		end  *result.End
		want string // "" for no finding
	}{
		{"complete", records, &result.End{Status: result.EndComplete}, ""},
		{"check failed", records, &result.End{Status: result.EndCheckFailed}, ""},
		{"interrupted", records, &result.End{Status: result.EndInterrupted, Signal: "interrupt", ElapsedS: 12.3}, "interrupted (interrupt)"},
		{"watchdog", nil, &result.End{Status: result.EndDeadline, Message: "rank 1: PingPong 4 KiB did not return in 20 s"}, "the watchdog ended the run: rank 1"},
		{"failed", records, &result.End{Status: result.EndFailed, Message: "MPI_Send: connection reset"}, "ended early: MPI_Send"},
		{"killed", records, nil, "no end record"},
		{"imported IMB log", &result.Source{Format: "imb"}, nil, ""},
		{"no source, no end", nil, nil, ""},
	}
	for _, c := range cases {
		f, ok := incomplete(&result.Bundle{Run: &result.Run{Source: c.src}, Results: res, End: c.end})
		if ok != (c.want != "") || ok && (!strings.Contains(f.Summary, c.want) || f.Severity != Warning ||
			!strings.Contains(strings.Join(f.Numbers, "; "), "2 results, the last PingPong at 4 KiB (np 2)")) {
			t.Errorf("%s: %v %q %v, want %q", c.name, ok, f.Summary, f.Numbers, c.want)
		}
	}
}

func TestApart(t *testing.T) {
	cases := []struct {
		means []float64
		k     int
		ratio float64
		ok    bool
	}{
		{[]float64{100, 100, 20, 100}, 2, 0.2, true}, // late: its calls return soonest
		{[]float64{10, 10, 10, 40}, 3, 4, true},      // slow
		{[]float64{10, 11, 12, 13}, 0, 0, false},     // nobody apart
		{[]float64{10, 30}, 1, 3, true},              // two ranks: the slower
		{[]float64{10, 12}, 1, 1.2, false},           // … when far enough
		{[]float64{0, 0, 0}, 0, 0, false},            // no times
		{[]float64{100, 100, 100, 100, 100, 50}, 5, 0.5, true},
	}
	for _, c := range cases {
		k, ratio, ok := apart(c.means, 1.5)
		if ok != c.ok || ok && (k != c.k || ratio < c.ratio-1e-9 || ratio > c.ratio+1e-9) {
			t.Errorf("apart(%v) = %d, %g, %v; want %d, %g, %v", c.means, k, ratio, ok, c.k, c.ratio, c.ok)
		}
	}
}
