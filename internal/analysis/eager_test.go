package analysis

import (
	"strings"
	"testing"

	"github.com/gomb-hpc/gomb/result"
)

// shmRun is a healthy shared-memory run of the library lib: each
// benchmark eager up to its step, then a 2 µs rendezvous handshake, the
// copies at 6 GB/s and, from 32 KiB on, at 2.8 GB/s (the caches): the
// larger sizes never regain the bandwidth of the size before the step.
func shmRun(lib result.MPI, step int64, benches ...string) *result.Bundle {
	r := &result.Bundle{Run: &result.Run{Suite: "imb", RunID: "shm", WorldSize: 2, MPI: lib}}
	for _, bench := range benches {
		var pts []pt
		for b := int64(1); b <= 4<<20; b *= 2 {
			bw := 6000.0
			if b >= 32<<10 {
				bw = 2800
			}
			t := 0.4 + float64(b)/bw
			if b >= step {
				t += 2
			}
			pts = append(pts, pt{bytes: b, tavg: t, tmin: t, tmax: t, bw: float64(b) / t})
		}
		r.Results = append(r.Results, mkRun("imb", bench, 2, result.IntraNode, pts, nil).Results...)
	}
	return r
}

// TestEagerLimit: a healthy Open MPI run on shared memory steps at its
// eager limit (4 KiB with the header) and, its copies capped by the
// caches, never regains the bandwidth of the size before: the library's
// switch (INFO naming btl_vader_eager_limit), not a cliff, whether the
// step is at 4 or 8 KiB and whatever benchmarks the run holds. The same
// step at 4 KiB under MPICH, whose shared-memory limit is 16 KiB, stays a
// cliff.
func TestEagerLimit(t *testing.T) {
	ompi := result.MPI{Impl: "openmpi", Library: "Open MPI v4.1.4, package: Debian OpenMPI", Name: "Open MPI"}
	for _, c := range []struct {
		step    int64
		benches []string
	}{{8 << 10, []string{"Sendrecv"}}, {8 << 10, []string{"Sendrecv", "PingPing"}}, {4 << 10, []string{"Sendrecv"}}} {
		fs := Explain(shmRun(ompi, c.step, c.benches...), ExplainOptions{})
		said := false
		for _, f := range fs {
			if f.Kind == KindCliff && f.Severity == Warning {
				t.Errorf("Open MPI, step at %s, %v: %s", Size(c.step), c.benches, f.Summary)
			}
			said = said || f.Kind == KindSwitch && strings.Contains(strings.Join(f.Numbers, " "), "btl_vader_eager_limit")
		}
		if !said {
			t.Errorf("Open MPI, step at %s, %v: no switch naming the eager limit: %s", Size(c.step), c.benches, kinds(fs))
		}
	}
	mpich := result.MPI{Impl: "mpich", Library: "MPICH Version: 4.0.2", Name: "MPICH"}
	if f := find(Explain(shmRun(mpich, 4<<10, "Sendrecv"), ExplainOptions{}), KindCliff); f == nil || f.Severity != Warning {
		t.Errorf("MPICH, step at 4 KiB: %+v", f)
	}
}
