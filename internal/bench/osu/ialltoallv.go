package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:     "ialltoallv",
		Title:    "OSU MPI Non-blocking All-to-Allv Personalized Exchange Latency Test",
		Kind:     NonBlocking,
		Job:      kernel.Params{Kernel: kernel.NBC, NBCOp: kernel.NBCIalltoallv},
		MaxLog:   20,
		MinRanks: 2,
		Buffers:  alltoallBuffers,
		Summary:  "MPI_Ialltoallv with overlapped compute",
	})
}
