package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerIO(&Spec{
		Name:          "P_IRead_Priv",
		Order:         28,
		IO:            kernel.IO{Access: kernel.IOGet, Pos: kernel.IOIndv, Priv: true, Nonblocking: true},
		Family:        ParallelTransfer,
		AggregateOnly: true,
		Summary:       "MPI_File_iread: every process reads its share of size bytes, each process in a file of its own; overlapped with IMB's CPU exploit",
	})
}
