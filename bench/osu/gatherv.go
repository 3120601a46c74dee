package osu

import "github.com/gomb-hpc/gomb/mpi"

func init() {
	Register(&Spec{
		Name:     "gatherv",
		Title:    "OSU MPI Gatherv Latency Test",
		Kind:     Collective,
		Job:      mpi.JobSpec{Kernel: mpi.KernelGatherv},
		MaxLog:   20,
		MinRanks: 2,
		Rooted:   true,
		Buffers:  gatherBuffers,
		Summary:  "MPI_Gatherv",
	})
}
