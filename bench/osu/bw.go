package osu

import "github.com/gomb-hpc/gomb/mpi"

func init() {
	Register(&Spec{
		Name:       "bw",
		Title:      "OSU MPI Bandwidth Test",
		Kind:       Bandwidth,
		Job:        mpi.JobSpec{Kernel: mpi.KernelOSUBw},
		MaxLog:     22,
		ExactRanks: 2,
		BWFactor:   1,
		Buffers:    SameBuffers,
		Summary:    "windows of messages from rank 0 to rank 1",
	})
}
