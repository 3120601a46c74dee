package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:       "latency_persistent",
		Title:      "OSU MPI Latency Persistent Test",
		Kind:       Latency,
		Job:        kernel.Params{Kernel: kernel.OSULatency, Persist: true},
		MaxLog:     22,
		ExactRanks: 2,
		Buffers:    SameBuffers,
		Directions: 1,
		Summary:    "osu_latency with persistent requests: MPI_Send_init/MPI_Recv_init once a size, MPI_Start and MPI_Wait each way",
	})
}
