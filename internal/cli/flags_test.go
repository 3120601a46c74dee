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
