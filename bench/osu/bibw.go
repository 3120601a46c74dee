package osu

import "github.com/gomb-hpc/gomb/mpi"

func init() {
	Register(&Spec{
		Name:       "bibw",
		Title:      "OSU MPI Bi-Directional Bandwidth Test",
		Kind:       Bandwidth,
		Job:        mpi.JobSpec{Kernel: mpi.KernelOSUBibw},
		MaxLog:     22,
		ExactRanks: 2,
		BWFactor:   2,
		Buffers:    SameBuffers,
		Summary:    "windows of messages both ways between ranks 0 and 1",
	})
}
