package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/suites"
)

// TestSuitePlan: every shipped suite's tests pass their own commands'
// parsing and plan on six nodes in two racks; a bad suite file, or a test
// its command refuses (the measuring commands are those of the command
// table that write labelled records), is refused with one line naming the
// file, line and field, exit 2.
func TestSuitePlan(t *testing.T) {
	dir := t.TempDir()
	topo := filepath.Join(dir, "topology.conf")
	if err := os.WriteFile(topo, []byte("SwitchName=leaf1 Nodes=h[1-3]\nSwitchName=leaf2 Nodes=h[4-6]\nSwitchName=spine Switches=leaf[1-2]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	where := []string{"-nodes", "h[1-6]", "-topology", topo, "-launcher", "mpirun"}
	for _, name := range suites.Names() {
		var so, se bytes.Buffer
		if err := run(&so, &se, append([]string{"suite", "plan", name}, where...)); err != nil {
			t.Fatalf("plan %s: %v", name, err)
		}
		if !strings.Contains(so.String(), "longest path") && name == "osu-crossroads" {
			t.Errorf("plan %s:\n%s", name, so.String())
		}
	}
	head := "suite: bad\nrows:\n"
	for _, c := range []struct{ name, yaml, want string }{
		{"unknown test", head + "  - test: osu latencyy\n    nodes: 2\n", `bad.yaml:3: rows[1].test: osu latencyy: `},
		{"unknown flag", head + "  - test: osu latency -q 3\n    sizes: 8\n    nodes: 2\n", `bad.yaml:3: rows[1].test: osu latency -q 3: `},
		{"unknown placement", head + "  - test: osu barrier\n    nodes: 2\n    placement: per-thread\n", `bad.yaml:5: rows[1].placement: unknown placement "per-thread"`},
		{"size typo", head + "  - test: osu allreduce -m 8:1677216\n    sizes: [8, 16m]\n    nodes: 2\n", "bad.yaml:4: rows[1].sizes: 16 MiB is not among the sizes"},
		{"not measuring", head + "  - test: import x.log\n    nodes: 2\n", `bad.yaml:3: rows[1].test: import x.log: "import" is no gomb measuring command ` +
			`(imb, imb-nbc, imb-mpi4, imb-ext, imb-rma, imb-io, imb-p2p, imb-mt, osu, fleet, congestion, ring)`},
		{"imb size", head + "  - test: imb PingPong -msglog 0:3\n    sizes: 16\n    nodes: 2\n", "bad.yaml:4: rows[1].sizes: 16 B is not among"},
	} {
		f := filepath.Join(dir, "bad.yaml")
		if err := os.WriteFile(f, []byte(c.yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		var so, se bytes.Buffer
		err := run(&so, &se, append([]string{"suite", "plan", f}, where...))
		msg := ""
		if err != nil {
			msg = strings.TrimPrefix(err.Error(), dir+"/")
		}
		if cli.Code(err) != cli.ExitUsage || !strings.HasPrefix(msg, c.want) || strings.Contains(msg, "\n") {
			t.Errorf("%s: exit %d, %q; want exit 2, one line starting %q", c.name, exitCodeOf(err), msg, c.want)
		}
	}
}
