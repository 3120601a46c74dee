package imbrun

import (
	"strings"
	"testing"

	"github.com/gomb-hpc/gomb/internal/bench/imb"
	"github.com/gomb-hpc/gomb/internal/mpi"
)

// TestIntLimit: IMB 2021's int-overflow check counts a buffer's elements
// of the benchmark's unit, not its bytes; past it a size runs through the
// large-count calls where this build's library has them for the kernel
// (MPICH 4: go test -tags mpich), else its reason names the limit.
func TestIntLimit(t *testing.T) {
	look := func(name string) *imb.Spec {
		s, ok := imb.Lookup(imb.Suite, name)
		if !ok {
			t.Fatalf("no %s", name)
		}
		return s
	}
	for _, c := range []struct {
		bench      string
		size       int64
		np         int
		unit       int64
		over       bool
		want, then string // in the reason: the buffer; the way out
	}{
		{"PingPong", 1<<31 - 1, 2, 1, false, "", ""},
		{"PingPong", 1 << 31, 2, 1, true, "send buffer of 2147483648 elements", "large-count calls"},
		{"PingPong", 1 << 33, 2, 8, false, "", ""}, // -data_type double: 2^30 elements
		{"Exchange", 1 << 30, 2, 1, true, "send buffer of 2147483648 elements", "large-count calls"},
		{"Allgather", 1 << 29, 4, 1, true, "receive buffer of 2147483648 elements", "large-count calls"},
		{"Allgather", 1 << 29, 3, 1, false, "", ""},
		{"Allreduce", 1 << 33, 2, 4, true, "send buffer of 2147483648 elements", "large-count calls"},
		{"Alltoallv", 1 << 29, 4, 1, true, "buffer of 2147483648 elements", "gomb sends past it only in"},
	} {
		s := look(c.bench)
		large, reason := intLimit(s, c.size, c.np, c.unit)
		switch {
		case !c.over:
			if large || reason != "" {
				t.Errorf("%s %d B np %d: large %v, reason %q; want neither", c.bench, c.size, c.np, large, reason)
			}
		case mpi.LargeCount(s.Kernel):
			if !large || reason != "" {
				t.Errorf("%s %d B np %d: large %v, reason %q; want large", c.bench, c.size, c.np, large, reason)
			}
		default:
			then := c.then
			if !mpi.LargeCount(look("PingPong").Kernel) {
				then = "has no MPI-4 large-count calls"
			}
			if large || !strings.Contains(reason, c.want) || !strings.Contains(reason, then) {
				t.Errorf("%s %d B np %d: large %v, reason %q; want one naming %q and %q", c.bench, c.size, c.np, large, reason, c.want, then)
			}
		}
	}
	if mpi.LargeCount(look("PingPong").Kernel) && mpi.LargeCount(look("Alltoallv").Kernel) {
		t.Error("Alltoallv has no large-count kernel, yet LargeCount says so")
	}
}
