package osu

import "github.com/gomb-hpc/gomb/mpi"

func init() {
	Register(&Spec{
		Name:     "allgather",
		Title:    "OSU MPI Allgather Latency Test",
		Kind:     Collective,
		Job:      mpi.JobSpec{Kernel: mpi.KernelAllgather},
		MaxLog:   20,
		MinRanks: 2,
		Buffers:  gatherBuffers,
		Summary:  "MPI_Allgather",
	})
}
