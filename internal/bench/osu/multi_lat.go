package osu

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	Register(&Spec{
		Name:     "multi_lat",
		Title:    "OSU MPI Multi Latency Test",
		Kind:     Latency,
		Job:      kernel.Params{Kernel: kernel.OSULatency, Pairs: true},
		MaxLog:   22,
		MinRanks: 2,
		Buffers:  SameBuffers,
		Cost:     bench.CostPairs,
		Summary:  "pairs (i, i+np/2) ping-pong at once: mean latency",
	})
}
