package osu

import "github.com/gomb-hpc/gomb/mpi"

func init() {
	Register(&Spec{
		Name:     "scatterv",
		Title:    "OSU MPI Scatterv Latency Test",
		Kind:     Collective,
		Job:      mpi.JobSpec{Kernel: mpi.KernelScatterv},
		MaxLog:   20,
		MinRanks: 2,
		Rooted:   true,
		Buffers:  scatterBuffers,
		Summary:  "MPI_Scatterv",
	})
}
