package osu

import "github.com/gomb-hpc/gomb/mpi"

func init() {
	Register(&Spec{
		Name:      "allreduce",
		Title:     "OSU MPI Allreduce Latency Test",
		Kind:      Collective,
		Job:       mpi.JobSpec{Kernel: mpi.KernelAllreduce},
		MaxLog:    20,
		MinRanks:  2,
		Reduction: true,
		Buffers:   SameBuffers,
		Summary:   "MPI_Allreduce (MPI_SUM)",
	})
}
