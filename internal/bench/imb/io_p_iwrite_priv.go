package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerIO(&Spec{
		Name:          "P_IWrite_Priv",
		Order:         10,
		IO:            kernel.IO{Access: kernel.IOPut, Pos: kernel.IOIndv, Priv: true, Nonblocking: true},
		Family:        ParallelTransfer,
		AggregateOnly: true,
		Summary:       "MPI_File_iwrite: every process writes its share of size bytes, each process in a file of its own; overlapped with IMB's CPU exploit",
	})
}
