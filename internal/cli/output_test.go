package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDistinct: an output that names an input or another output is a
// usage error, through links and before the file exists.
func TestDistinct(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "sizes.txt")
	if err := os.WriteFile(in, []byte("8\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink(in, link); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "a.db") // does not exist yet
	for _, c := range []struct {
		outs, ins []Named
		want      string // "" for no error
	}{
		{[]Named{{"-json", in}}, []Named{{"-msglen", in}}, "-json " + in + ": that is also -msglen"},
		{[]Named{{"-json", link}}, []Named{{"-input", in}}, "that is also -input"},
		{[]Named{{"-json", db}, {"-archive", db}}, nil, "-json " + db + ": that is also -archive"},
		{[]Named{{"-json", filepath.Join(dir, ".", "a.db")}, {"-archive", db}}, nil, "that is also -archive"},
		{[]Named{{"-json", filepath.Join(dir, "r.jsonl")}, {"-archive", db}}, []Named{{"-msglen", in}}, ""},
		{[]Named{{"-json", "-"}, {"--prom", "-"}}, nil, ""},
		{[]Named{{"-json", os.DevNull}, {"--prom", os.DevNull}}, nil, ""},
		{[]Named{{"-json", ""}}, []Named{{"-msglen", ""}}, ""},
	} {
		err := Distinct(c.outs, c.ins)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%v %v: %v", c.outs, c.ins, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || Code(err) != ExitUsage):
			t.Errorf("%v %v: %v, want %q", c.outs, c.ins, err, c.want)
		}
	}
}
