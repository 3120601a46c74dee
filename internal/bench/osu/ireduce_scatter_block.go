package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:       "ireduce_scatter_block",
		Title:      "OSU MPI Non-blocking Reduce_scatter_block Latency Test",
		Version:    "7.4", // OSU 7.4 brought it
		Kind:       NonBlocking,
		Job:        kernel.Params{Kernel: kernel.NBC, NBCOp: kernel.NBCIreduceScatterBlock},
		MaxLog:     20,
		MinRanks:   2,
		Reduction:  true,
		SplitCount: true,
		Buffers:    SameBuffers,
		Summary:    "MPI_Ireduce_scatter_block (MPI_SUM), a np-th of size bytes' elements for each rank, with overlapped compute",
	})
}
