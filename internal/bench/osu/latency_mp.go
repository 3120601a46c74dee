package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:       "latency_mp",
		Title:      "OSU MPI Multi-process Latency Test",
		Kind:       Latency,
		Job:        kernel.Params{Kernel: kernel.OSULatency, IterBarrier: true},
		Processes:  true,
		MaxLog:     22,
		ExactRanks: 2,
		Buffers:    SameBuffers,
		Directions: 1,
		Summary:    "osu_latency with a barrier before each round trip, beside idle forked processes on each rank (-t SEND:RECV, default 2:2)",
	})
}
