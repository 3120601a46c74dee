package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:       "bibw",
		Title:      "OSU MPI Bi-Directional Bandwidth Test",
		Kind:       Bandwidth,
		Job:        kernel.Params{Kernel: kernel.OSUBibw},
		MaxLog:     22,
		ExactRanks: 2,
		BWFactor:   2,
		Buffers:    SameBuffers,
		Directions: 2,
		Summary:    "windows of messages both ways between ranks 0 and 1",
	})
}
