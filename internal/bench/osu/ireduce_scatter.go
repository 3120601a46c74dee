package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:      "ireduce_scatter",
		Title:     "OSU MPI Non-blocking Reduce_scatter Latency Test",
		Kind:      NonBlocking,
		Job:       kernel.Params{Kernel: kernel.NBC, NBCOp: kernel.NBCIreduceScatter},
		MaxLog:    20,
		MinRanks:  2,
		Reduction: true,
		Buffers:   SameBuffers,
		Summary:   "MPI_Ireduce_scatter (MPI_SUM) of size bytes in all, split over the ranks, with overlapped compute",
	})
}
