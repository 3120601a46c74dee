package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:      "iallreduce",
		Title:     "OSU MPI Non-blocking Allreduce Latency Test",
		Kind:      NonBlocking,
		Job:       kernel.Params{Kernel: kernel.NBC, NBCOp: kernel.NBCIallreduce},
		MaxLog:    20,
		MinRanks:  2,
		Reduction: true,
		Buffers:   SameBuffers,
		Summary:   "MPI_Iallreduce (MPI_SUM) with overlapped compute",
	})
}
