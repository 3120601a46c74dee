package osu

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

// alltoallBuffers: one block to and from every rank.
func alltoallBuffers(size int64, np, window int) (int64, int64) {
	return int64(np) * size, int64(np) * size
}

func init() {
	Register(&Spec{
		Name:     "alltoall",
		Title:    "OSU MPI All-to-All Personalized Exchange Latency Test",
		Kind:     Collective,
		Job:      kernel.Params{Kernel: kernel.Alltoall},
		MaxLog:   20,
		MinRanks: 2,
		Buffers:  alltoallBuffers,
		Bus:      bench.BusAlltoall,
		Cost:     bench.CostAlltoall,
		Summary:  "MPI_Alltoall",
	})
}
