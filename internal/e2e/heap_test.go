package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestHeapNeverTrims: the sequence case of issue 36. Open MPI's
// Reduce_scatter_block mallocs two 128 KiB temporaries per call; whether
// glibc trims the heap's top and faults it in again on every call (180-550
// us at 64 KiB, np 2, against 13-25 us) depended on where earlier
// allocations had left the top, so gomb's figure after Reduce_scatter, or
// alone, swung 20x by rank, environment and machine, as IMB-MPI1's own
// does. gomb settles the heap before the first benchmark (job.c,
// heap_settle); a shim counts the trims of each rank's heap through the
// whole job: before, rank 0 counted one per iteration.
func TestHeapNeverTrims(t *testing.T) {
	if testing.Short() {
		t.Skip("MPI jobs")
	}
	shim := filepath.Join(t.TempDir(), "trims.so")
	if out, err := exec.Command("cc", "-O2", "-shared", "-fPIC", "-o", shim, "testdata/heap/trims.c").CombinedOutput(); err != nil {
		t.Fatalf("building the shim: %v\n%s", err, out)
	}
	const iters = 300
	for _, m := range mpis {
		for _, seq := range [][]string{{"Reduce_scatter_block"}, {"Reduce_scatter", "Reduce_scatter_block"}} {
			t.Run(m.name+"/"+strings.Join(seq, "+"), func(t *testing.T) {
				dir := t.TempDir()
				var lflags []string
				if m.name == "openmpi" {
					lflags = []string{"-x", "LD_PRELOAD", "-x", "GOMB_TRIMS_DIR"}
				}
				args := append([]string{"imb", "-msgsize", "8,1024,16384,65536", "-iter", strconv.Itoa(iters), "-iter_policy", "off"}, seq...)
				j := launchArgv(t, m, 2, 2*time.Minute, []string{"LD_PRELOAD=" + shim, "GOMB_TRIMS_DIR=" + dir}, lflags, args...)
				if j.code != 0 {
					t.Fatalf("exit %d\n%s", j.code, tail(j.stderr))
				}
				files, _ := os.ReadDir(dir)
				if len(files) != 2 {
					t.Fatalf("%d ranks reported their trims, want 2", len(files))
				}
				for _, f := range files {
					b, err := os.ReadFile(filepath.Join(dir, f.Name()))
					if err != nil {
						t.Fatal(err)
					}
					n, err := strconv.Atoi(strings.TrimSpace(string(b)))
					if err != nil {
						t.Fatal(err)
					}
					// a handful at set-up and between sizes is glibc's
					// ordinary bookkeeping; a loop that trims counts
					// hundreds
					t.Logf("pid %s: %d trims", f.Name(), n)
					if n > iters/10 {
						t.Errorf("pid %s: the heap's top was given back %d times in a job of %d iterations a size", f.Name(), n, iters)
					}
				}
			})
		}
	}
}
