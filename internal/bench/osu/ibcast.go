package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:     "ibcast",
		Title:    "OSU MPI Non-blocking Broadcast Latency Test",
		Kind:     NonBlocking,
		Job:      kernel.Params{Kernel: kernel.NBC, NBCOp: kernel.NBCIbcast},
		MaxLog:   20,
		MinRanks: 2,
		Rooted:   true,
		Buffers:  SameBuffers,
		Summary:  "MPI_Ibcast with overlapped compute",
	})
}
