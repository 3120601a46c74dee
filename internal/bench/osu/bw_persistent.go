package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:       "bw_persistent",
		Title:      "OSU MPI Bandwidth Persistent Test",
		Kind:       Bandwidth,
		Job:        kernel.Params{Kernel: kernel.OSUBw, Persist: true},
		MaxLog:     22,
		ExactRanks: 2,
		BWFactor:   1,
		Buffers:    SameBuffers,
		Directions: 1,
		Summary:    "osu_bw with the window's persistent requests made once a size, MPI_Startall and MPI_Waitall each iteration",
	})
}
