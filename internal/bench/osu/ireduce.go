package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:      "ireduce",
		Title:     "OSU MPI Non-blocking Reduce Latency Test",
		Kind:      NonBlocking,
		Job:       kernel.Params{Kernel: kernel.NBC, NBCOp: kernel.NBCIreduce},
		MaxLog:    20,
		MinRanks:  2,
		Rooted:    true,
		Reduction: true,
		Buffers:   SameBuffers,
		Summary:   "MPI_Ireduce (MPI_SUM) with overlapped compute",
	})
}
