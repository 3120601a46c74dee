package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerIO(&Spec{
		Name:          "P_IWrite_Shared",
		Order:         8,
		IO:            kernel.IO{Access: kernel.IOPut, Pos: kernel.IOShared, Nonblocking: true},
		Family:        ParallelTransfer,
		AggregateOnly: true,
		Summary:       "MPI_File_iwrite_shared: every process writes its share of size bytes, the shared pointer; overlapped with IMB's CPU exploit",
	})
}
