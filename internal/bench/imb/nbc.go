package imb

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

// nbcTwin is an IMB-NBC collective: the benchmark that overlaps it with
// IMB's CPU exploit (in IMB-NBC's default list, at Order) and its _pure
// twin, which times it alone. Each ibcast.go, iallgather.go, ... declares
// one.
type nbcTwin struct {
	Name      string // "Ibcast"
	Op        kernel.NBCOp
	Order     int
	Reduction bool
	Rooted    bool
	Buffers   func(size int64, np int) (send, recv int64)
	// Bus and Cost are the blocking twin's; only the _pure benchmark,
	// whose time is the collective's alone, is held against them.
	Bus  func(p float64) float64
	Cost func(t bench.P2P, n, p float64) float64
	Call string // "MPI_Ibcast of size bytes"
}

// registerNBC registers the twins. Ibarrier's have no size (IMB's Sync).
func registerNBC(t nbcTwin) {
	fam := Collective
	if t.Op == kernel.NBCIbarrier {
		fam = Sync
	}
	pure := &Spec{Suite: SuiteNBC, Name: t.Name + "_pure", Kernel: kernel.IMBNBC, NBCOp: t.Op, Family: fam,
		TimeScale: 1, Reduction: t.Reduction, Rooted: t.Rooted, Buffers: t.Buffers, Bus: t.Bus, Cost: t.Cost,
		Summary: t.Call + ", then MPI_Wait; timed alone"}
	over := *pure
	over.Name, over.Overlap, over.Default, over.Order = t.Name, true, true, t.Order
	over.Bus, over.Cost = nil, nil
	over.Summary = t.Call + ", IMB's CPU exploit for as long, MPI_Wait; the overlap"
	Register(pure)
	Register(&over)
}
