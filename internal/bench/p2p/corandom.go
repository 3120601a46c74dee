package p2p

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:    "Corandom",
		Op:      kernel.P2PCorandom,
		Order:   5,
		Kind:    Counted,
		Valid:   twoOrMore,
		Invalid: isInvalid,
		Buffers: 1,
		Latency: false,
		Summary: "a random ring of all ranks an iteration, each receiving from its predecessor and sending to its successor",
	})
}
