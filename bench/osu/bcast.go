package osu

import "github.com/gomb-hpc/gomb/mpi"

func init() {
	Register(&Spec{
		Name:     "bcast",
		Title:    "OSU MPI Broadcast Latency Test",
		Kind:     Collective,
		Job:      mpi.JobSpec{Kernel: mpi.KernelBcast},
		MaxLog:   20,
		MinRanks: 2,
		Rooted:   true,
		Buffers:  SameBuffers,
		Summary:  "MPI_Bcast",
	})
}
