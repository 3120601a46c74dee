package osu

import (
	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/kernel"
)

func init() {
	Register(&Spec{
		Name:     "alltoall_persistent",
		Title:    "OSU MPI All-to-All Personalized Exchange Persistent Latency Test",
		Version:  "7.4", // OSU 7.3 brought them; gomb follows 7.4's
		Kind:     Collective,
		Job:      kernel.Params{Kernel: kernel.Alltoall, Persist: true},
		MaxLog:   20,
		MinRanks: 2,
		Buffers:  alltoallBuffers,
		Bus:      bench.BusAlltoall,
		Cost:     bench.CostAlltoall,
		Summary:  "MPI_Alltoall as a persistent request (MPI_Alltoall_init once a size, MPI_Start and MPI_Wait)",
	})
}
