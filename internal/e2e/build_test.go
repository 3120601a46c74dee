package e2e

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestWrapperBuild: each binary, built by its MPI's compiler wrapper with
// no pkg-config and no build tag (TestMain), says which library it was
// compiled against and runs with, and measures under its own launcher with
// the same in its run record (TestWrongBinary: the other MPI's launcher).
func TestWrapperBuild(t *testing.T) {
	want := map[string]struct {
		name, header string
		has, lacks   []string
	}{
		"openmpi": {"Open MPI", "Open MPI 4.", []string{"persistent-collectives", "MPIX_Query_cuda_support"}, []string{"large-count", "sessions"}},
		"mpich":   {"MPICH", "MPICH 4.", []string{"large-count", "sessions", "partitioned", "persistent-collectives", "float16"}, nil},
	}
	for _, m := range mpis {
		w := want[m.name]
		t.Run(m.name, func(t *testing.T) {
			out, err := exec.Command(filepath.Join(binDir, m.bin), "version").CombinedOutput()
			if err != nil {
				t.Fatalf("version: %v\n%s", err, out)
			}
			for _, s := range []string{"MPI build: " + m.name + " (compiled against " + w.header, "MPI library: " + w.name + " 4."} {
				if !strings.Contains(string(out), s) {
					t.Errorf("version lacks %q:\n%s", s, out)
				}
			}

			rec := filepath.Join(t.TempDir(), "r.jsonl")
			j := launch(t, m, 2, time.Minute, nil, "-msglog", "2", "-iter", "10", "-iter_policy", "off", "-json", rec, "PingPong")
			if j.code != 0 || !strings.Contains(j.stdout, "Benchmarking PingPong") {
				t.Fatalf("exit %d\n%s\n%s", j.code, tail(j.stdout), tail(j.stderr))
			}
			r := readRecords(t, rec).run.MPI
			if r.Impl != m.name || r.Name != w.name || !strings.HasPrefix(r.Version, "4.") || !strings.HasPrefix(r.Header, w.header) {
				t.Errorf("record's mpi: impl %q name %q version %q header %q", r.Impl, r.Name, r.Version, r.Header)
			}
			for _, f := range w.has {
				if !slices.Contains(r.Features, f) {
					t.Errorf("features %v lack %s", r.Features, f)
				}
			}
			for _, f := range w.lacks {
				if slices.Contains(r.Features, f) {
					t.Errorf("features %v have %s", r.Features, f)
				}
			}

		})
	}
}
