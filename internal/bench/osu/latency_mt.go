package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:       "latency_mt",
		Title:      "OSU MPI Multi-threaded Latency Test",
		Kind:       Latency,
		Job:        kernel.Params{Kernel: kernel.OSULatency},
		Threads:    true,
		MaxLog:     22,
		ExactRanks: 2,
		Buffers:    SameBuffers,
		Directions: 1,
		Summary:    "ping-pongs between sender threads on rank 0 and receiver threads on rank 1 (-t SEND:RECV, default 1:2), MPI_THREAD_MULTIPLE",
	})
}
