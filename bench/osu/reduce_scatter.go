package osu

import "github.com/gomb-hpc/gomb/mpi"

func init() {
	Register(&Spec{
		Name:      "reduce_scatter",
		Title:     "OSU MPI Reduce_scatter Latency Test",
		Kind:      Collective,
		Job:       mpi.JobSpec{Kernel: mpi.KernelReduceScatterSplit},
		MaxLog:    20,
		MinRanks:  2,
		Reduction: true,
		Buffers:   SameBuffers,
		Summary:   "MPI_Reduce_scatter (MPI_SUM) of size bytes in all, split over the ranks",
	})
}
