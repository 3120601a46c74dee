package osu

import "github.com/gomb-hpc/gomb/mpi"

func init() {
	Register(&Spec{
		Name:     "alltoallv",
		Title:    "OSU MPI All-to-Allv Personalized Exchange Latency Test",
		Kind:     Collective,
		Job:      mpi.JobSpec{Kernel: mpi.KernelAlltoallv},
		MaxLog:   20,
		MinRanks: 2,
		Buffers:  alltoallBuffers,
		Summary:  "MPI_Alltoallv",
	})
}
