package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerIO(&Spec{
		Name:          "P_IRead_Shared",
		Order:         26,
		IO:            kernel.IO{Access: kernel.IOGet, Pos: kernel.IOShared, Nonblocking: true},
		Family:        ParallelTransfer,
		AggregateOnly: true,
		Summary:       "MPI_File_iread_shared: every process reads its share of size bytes, the shared pointer; overlapped with IMB's CPU exploit",
	})
}
