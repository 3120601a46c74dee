package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:       "bibw_persistent",
		Title:      "OSU MPI Bi-Directional Bandwidth Persistent Test",
		Kind:       Bandwidth,
		Job:        kernel.Params{Kernel: kernel.OSUBibw, Persist: true},
		MaxLog:     22,
		ExactRanks: 2,
		BWFactor:   2,
		Buffers:    SameBuffers,
		Directions: 2,
		Summary:    "osu_bibw with both windows' persistent requests made once a size, MPI_Startall and MPI_Waitall each iteration",
	})
}
