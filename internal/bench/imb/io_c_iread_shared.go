package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerIO(&Spec{
		Name:          "C_IRead_Shared",
		Order:         34,
		IO:            kernel.IO{Access: kernel.IOGet, Pos: kernel.IOShared, Collective: true, Nonblocking: true},
		Family:        Collective,
		AggregateOnly: true,
		Summary:       "MPI_File_read_ordered_begin/_end: every process reads its share of size bytes, collectively, the shared pointer; overlapped with IMB's CPU exploit",
	})
}
