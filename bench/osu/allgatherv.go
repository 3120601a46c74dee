package osu

import "github.com/gomb-hpc/gomb/mpi"

func init() {
	Register(&Spec{
		Name:     "allgatherv",
		Title:    "OSU MPI Allgatherv Latency Test",
		Kind:     Collective,
		Job:      mpi.JobSpec{Kernel: mpi.KernelAllgatherv},
		MaxLog:   20,
		MinRanks: 2,
		Buffers:  gatherBuffers,
		Summary:  "MPI_Allgatherv",
	})
}
