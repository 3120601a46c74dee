package analysis

import (
	"strings"
	"testing"

	"github.com/gomb-hpc/gomb/result"
)

// TestAlgoTables: every table's thresholds rise and end unbounded, and no
// two tables of a library and collective claim the same process count.
func TestAlgoTables(t *testing.T) {
	for i, a := range algoTables {
		if a.minNP < 2 || a.maxNP < a.minNP || len(a.steps) == 0 || a.steps[len(a.steps)-1].below != 0 {
			t.Errorf("table %d (%s %s): bad bounds %+v", i, a.impl, a.op, a)
		}
		for k := 1; k < len(a.steps)-1; k++ {
			if a.steps[k].below <= a.steps[k-1].below {
				t.Errorf("table %d (%s %s): thresholds not rising at %d", i, a.impl, a.op, k)
			}
		}
		for j, b := range algoTables[:i] {
			if a.impl == b.impl && a.op == b.op && a.minNP <= b.maxNP && b.minNP <= a.maxNP && (a.pow2 == 0 || b.pow2 == 0 || a.pow2 == b.pow2) {
				t.Errorf("tables %d and %d (%s %s) overlap", j, i, a.impl, a.op)
			}
		}
	}
}

func TestAlgorithms(t *testing.T) {
	ompi := &result.Run{MPI: result.MPI{Impl: "openmpi", Library: "Open MPI v4.1.4, package: Debian OpenMPI"}}
	ompi5 := &result.Run{MPI: result.MPI{Impl: "openmpi", Library: "Open MPI v5.0.3"}}
	mpich := &result.Run{MPI: result.MPI{Impl: "mpich", Library: "MPICH Version:\t4.0.2\nMPICH Release date: ..."}}
	cases := []struct {
		run    *result.Run
		op     string
		np     int
		a, b   int64
		change string // a piece of the change between a and b; "" for none
	}{
		{ompi, "reduce", 2, 256 << 10, 512 << 10, "reduce goes from pipeline to chain between 256 KiB and 512 KiB (2 ranks); choose one with --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_reduce_algorithm N (pipeline is 3)"},
		{ompi, "reduce", 2, 1 << 10, 2 << 10, ""},
		{ompi, "allreduce", 2, 4, 8, "ring to recursive_doubling"},
		{ompi, "allreduce", 4, 4 << 10, 8 << 10, "recursive_doubling to rabenseifner"},
		{ompi, "allgather", 2, 1, 1 << 20, ""},
		{ompi5, "reduce", 2, 256 << 10, 512 << 10, ""}, // another version: unknown
		{mpich, "allreduce", 2, 8, 16, "recursive_doubling to reduce_scatter_allgather"},
		{mpich, "allgather", 4, 64 << 10, 128 << 10, "recursive_doubling to ring"}, // 512 KiB in all
		{mpich, "allgather", 3, 16 << 10, 32 << 10, "brucks to ring"},              // 80 KiB in all
		{mpich, "alltoall", 2, 32 << 10, 64 << 10, "MPIR_CVAR_ALLTOALL_INTRA_ALGORITHM"},
		{mpich, "bcast", 4, 1, 1 << 20, ""},
		{mpich, "barrier", 2, 0, 0, ""},
	}
	for _, c := range cases {
		got := algorithms(c.run, c.op, c.np).change(c.a, c.b, c.np)
		if c.change == "" && got != "" || !strings.Contains(got, c.change) {
			t.Errorf("%s %s np %d, %d → %d: %q, want %q", c.run.MPI.Library[:14], c.op, c.np, c.a, c.b, got, c.change)
		}
	}
	if got := algorithms(ompi, "allreduce", 2).uses(64<<10, 2); !strings.Contains(got, "allreduce runs segmented_ring at 64 KiB with 2 ranks") {
		t.Errorf("uses: %q", got)
	}
}
