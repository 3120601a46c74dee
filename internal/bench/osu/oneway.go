package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:       "oneway",
		Title:      "gomb One-way Latency Test",
		Kind:       OneWay,
		Job:        kernel.Params{Kernel: kernel.OneWay},
		MaxLog:     22,
		ExactRanks: 2,
		Buffers:    SameBuffers,
		Summary:    "latency of each direction on clocks synchronised by ping-pong (gomb)",
	})
}
