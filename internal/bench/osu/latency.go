package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:       "latency",
		Title:      "OSU MPI Latency Test",
		Kind:       Latency,
		Job:        kernel.Params{Kernel: kernel.OSULatency},
		MaxLog:     22,
		ExactRanks: 2,
		Buffers:    SameBuffers,
		Reference:  true,
		Directions: 1,
		Summary:    "round trip between ranks 0 and 1, halved",
	})
}
