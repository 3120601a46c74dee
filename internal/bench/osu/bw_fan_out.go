package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:       "bw_fan_out",
		Title:      "OSU MPI Bandwidth Test",
		Version:    "7.4",
		Kind:       Bandwidth,
		Job:        kernel.Params{Kernel: kernel.OSUFan, FanOut: true},
		MaxLog:     22,
		MinRanks:   2,
		BWFactor:   1,
		Buffers:    SameBuffers,
		Directions: 1,
		Summary:    "the ranks of the first node send windows to those of every other node: aggregate MB/s out of it (two or more hosts)",
	})
}
