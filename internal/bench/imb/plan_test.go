package imb

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestResolve(t *testing.T) {
	dir := t.TempDir()
	input := filepath.Join(dir, "list")
	os.WriteFile(input, []byte("# mine\nPingPong\n\n  Allreduce  \n"), 0o644)
	msglen := filepath.Join(dir, "lens")
	os.WriteFile(msglen, []byte("8\n1024\n"), 0o644)
	def := DefaultOptions()
	for _, c := range []struct {
		name  string
		req   Request
		world int
		want  []string
		err   string
	}{
		{"default list", Request{}, 2, DefaultNames(Suite), ""},
		{"names and -include", Request{Names: []string{"Barrier", "pingpong"}, Include: []string{"Uniband"}}, 2,
			[]string{"Barrier", "PingPong", "Uniband"}, ""},
		{"-exclude", Request{Names: []string{"PingPong", "Bcast"}, Exclude: []string{"PingPong"}}, 2, []string{"Bcast"}, ""},
		{"-input", Request{Input: input}, 2, []string{"PingPong", "Allreduce"}, ""},
		{"unknown", Request{Names: []string{"PingPang"}}, 2, nil, `unknown benchmark "PingPang"`},
		{"unknown -exclude", Request{Exclude: []string{"x"}}, 2, nil, `-exclude: unknown benchmark "x"`},
		{"nothing left", Request{Names: []string{"Bcast"}, Exclude: []string{"Bcast"}}, 2, nil, "no benchmark left"},
		{"too few ranks", Request{Names: []string{"PingPong"}}, 1, nil, "needs at least 2 processes"},
		{"no -input file", Request{Input: filepath.Join(dir, "none")}, 2, nil, "-input:"},
	} {
		c.req.Options = def
		p, err := Resolve(c.req, c.world)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: error %v, want %q", c.name, err, c.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(p.Benchmarks, c.want) {
			t.Errorf("%s: %v %v, want %v", c.name, p, err, c.want)
		}
	}
	p, err := Resolve(Request{Options: def, MsgLen: msglen}, 1) // the default list on one rank: what runs
	if err != nil || !reflect.DeepEqual(p.Options.Sizes, []int64{8, 1024}) || p.Options.NPMin != 1 {
		t.Errorf("-msglen on one rank: %+v %v", p, err)
	}
	// the plan's sizes: -msglen's, each once over PingPong and Allreduce;
	// Barrier's none
	p, err = Resolve(Request{Options: def, MsgLen: msglen, Names: []string{"PingPong", "Allreduce", "Barrier"}}, 2)
	if got := p.Sizes(); err != nil || !reflect.DeepEqual(got, []int64{8, 1024, 0}) {
		t.Errorf("sizes %v %v, want 8 1024 0", got, err)
	}
}
