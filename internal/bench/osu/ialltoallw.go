package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:     "ialltoallw",
		Title:    "OSU MPI Non-blocking All-to-Allw Personalized Exchange Latency Test",
		Kind:     NonBlocking,
		Job:      kernel.Params{Kernel: kernel.NBC, NBCOp: kernel.NBCIalltoallw},
		MaxLog:   20,
		MinRanks: 2,
		Buffers:  alltoallBuffers,
		Summary:  "MPI_Ialltoallw, byte displacements, with overlapped compute",
	})
}
