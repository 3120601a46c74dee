package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:       "bw",
		Title:      "OSU MPI Bandwidth Test",
		Kind:       Bandwidth,
		Job:        kernel.Params{Kernel: kernel.OSUBw},
		MaxLog:     22,
		ExactRanks: 2,
		BWFactor:   1,
		Buffers:    SameBuffers,
		Directions: 1,
		Summary:    "windows of messages from rank 0 to rank 1",
	})
}
