package cli

import (
	"flag"
	"io"
	"maps"
	"strings"
	"testing"
)

func TestLabelFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want Labels
		err  string
	}{
		{args: []string{"-system", "hpc4", "-label", "fabric=ib"}, want: Labels{"system": "hpc4", "fabric": "ib"}},
		{args: []string{"-campaign", "c7", "-cell", "nodes=2,ppn=16,bench=PingPong"},
			want: Labels{"campaign": "c7", "nodes": "2", "ppn": "16", "bench": "PingPong"}},
		{args: []string{"-cell", "nodes=2", "-cell", "ppn=4"}, want: Labels{"nodes": "2", "ppn": "4"}},
		{args: []string{"-cell", "nodes"}, err: "want K=V"},
		{args: []string{"-cell", "nodes=2,"}, err: "want K=V"},
		{args: []string{"-cell", "campaign=x"}, err: "use -campaign"},
		{args: []string{"-cell", "system=x"}, err: "use -system"},
		{args: []string{"-campaign", ""}, err: "empty campaign"},
		{args: []string{"-cell", "a=\x1b[2J"}, err: "control"},
	} {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		var l Labels
		l.Register(fs)
		err := fs.Parse(c.args)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want %q", c.args, err, c.err)
			}
			continue
		}
		if err != nil || !maps.Equal(l, c.want) {
			t.Errorf("%q: %v %v, want %v", c.args, l, err, c.want)
		}
	}
}

// TestNumberFlags: Int and Float take the whole string, a finite number,
// in range (the ends as the value says).
func TestNumberFlags(t *testing.T) {
	var i int
	var f float64
	share := Float{P: &f, Min: 0, Max: 1, Above: true, Below: true, What: "a share"}
	secs := Float{P: &f, Min: 0, Max: 86400, What: "seconds"}
	count := Int{P: &i, Min: 1, What: "iterations"}
	small := Int{P: &i, Min: -3, Max: 10, What: "re-runs"}
	for _, c := range []struct {
		v    flag.Value
		in   string
		ok   bool
		want float64
	}{
		{share, "0.5", true, 0.5}, {share, "0.5x", false, 0}, {share, "NaN", false, 0}, {share, "0", false, 0}, {share, "1", false, 0},
		{secs, "0", true, 0}, {secs, "86400", true, 86400}, {secs, "86400.5", false, 0}, {secs, "Inf", false, 0}, {secs, "1e400", false, 0},
		{count, "1", true, 1}, {count, "0", false, 0}, {count, "2147483648", false, 0}, {count, "0x10", false, 0}, {count, "5x", false, 0},
		{small, "-3", true, -3}, {small, "10", true, 10}, {small, "11", false, 0}, {small, "-4", false, 0},
	} {
		i, f = 0, 0
		err := c.v.Set(c.in)
		got := f + float64(i)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("%#v.Set(%q): %v, %v; want ok %v, %v", c.v, c.in, got, err, c.ok, c.want)
		}
	}
}
