package imb

import (
	"strings"

	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

// NBCPart is an IMB-NBC or IMB-MPI4 benchmark's part of its Spec
// (kernel.IMBNBC): the collective, and for IMB-MPI4's, that it is a
// persistent request.
type NBCPart struct {
	NBCOp   kernel.NBCOp
	Persist bool
}

// nbcTwin is an IMB-NBC collective (a row of nbcTable): the benchmark
// that overlaps it with IMB's CPU exploit (in IMB-NBC's default list) and
// its _pure twin, which times it alone; and IMB-MPI4's two of the same
// collective as a persistent request (Bcast_persist, Bcast_persist_pure,
// at the same place in IMB-MPI4's list).
type nbcTwin struct {
	Name      string // "Ibcast"
	Op        kernel.NBCOp
	Reduction bool
	Rooted    bool
	Buffers   func(size int64, np int) (send, recv int64)
	// Bus and Cost are the blocking twin's; only the _pure benchmark,
	// whose time is the collective's alone, is held against them.
	Bus  func(p float64) float64
	Cost func(t bench.P2P, n, p float64) float64
	Call string // "MPI_Ibcast of size bytes"
	Init string // "MPI_Bcast_init of size bytes" (IMB-MPI4)
	// NotMPI4Default: IMB-MPI4 2021.11 leaves the collective out of its
	// default list (Allgather_persist: its DEFAULT flag is commented out).
	NotMPI4Default bool
}

// registerNBC registers the twins of both suites, the overlapping ones
// at order in the default lists. Ibarrier's and Barrier_persist's have no
// size (IMB's Sync).
func registerNBC(t nbcTwin, order int) {
	fam := Collective
	if t.Op == kernel.NBCIbarrier {
		fam = Sync
	}
	persist := strings.ToUpper(t.Name[1:2]) + t.Name[2:] + "_persist" // Ibcast: Bcast_persist
	for _, v := range []struct {
		suite, name, call string
		persist, def      bool
	}{
		{SuiteNBC, t.Name, t.Call, false, true},
		{SuiteMPI4, persist, t.Init + " once, then MPI_Start", true, !t.NotMPI4Default},
	} {
		pure := &Spec{Suite: v.suite, Name: v.name + "_pure", Kernel: kernel.IMBNBC,
			NBCPart: NBCPart{NBCOp: t.Op, Persist: v.persist}, Family: fam, TimeScale: 1, Reduction: t.Reduction,
			Rooted: t.Rooted, Buffers: t.Buffers, Interp: Interp{Bus: t.Bus, Cost: t.Cost},
			Summary: v.call + ", MPI_Wait; timed alone"}
		over := *pure
		over.Name, over.Overlap, over.Default, over.Order = v.name, true, v.def, order
		over.Bus, over.Cost = nil, nil
		over.Summary = v.call + ", IMB's CPU exploit for as long, MPI_Wait; the overlap"
		Register(pure)
		Register(&over)
	}
}
