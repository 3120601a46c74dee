package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

// exchangeBuffers: two messages out (right and left neighbour); the two
// that come in land one after the other in one message's room, as in IMB.
func exchangeBuffers(size int64, np int) (int64, int64) { return 2 * size, size }

func init() {
	Register(&Spec{
		Suite:      Suite,
		Name:       "Exchange",
		Kernel:     kernel.Exchange,
		Family:     ParallelTransfer,
		Default:    true,
		Order:      4,
		TimeScale:  1,
		BWScale:    4,
		Buffers:    exchangeBuffers,
		Directions: 2,
		Sends:      2,
		Summary:    "every rank exchanges messages with both chain neighbours",
	})
}
