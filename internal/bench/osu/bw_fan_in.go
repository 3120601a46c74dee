package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:       "bw_fan_in",
		Title:      "OSU MPI Bandwidth Test",
		Version:    "7.4",
		Kind:       Bandwidth,
		Job:        kernel.Params{Kernel: kernel.OSUFan},
		MaxLog:     22,
		MinRanks:   2,
		BWFactor:   1,
		Buffers:    SameBuffers,
		Directions: 1,
		Summary:    "the ranks of every other node send windows to those of the first: aggregate MB/s into it (two or more hosts)",
	})
}
