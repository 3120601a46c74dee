package osu

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:     "mbw_mr",
		Title:    "OSU MPI Multiple Bandwidth / Message Rate Test",
		Kind:     MsgRate,
		Job:      kernel.Params{Kernel: kernel.OSUBw, Pairs: true},
		MaxLog:   22,
		MinRanks: 2,
		Buffers:  SameBuffers,
		Summary:  "pairs (i, i+np/2) stream windows: aggregate MB/s and messages/s",
	})
}
