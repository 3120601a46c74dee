package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerIO(&Spec{
		Name:          "P_IWrite_Indv",
		Order:         6,
		IO:            kernel.IO{Access: kernel.IOPut, Pos: kernel.IOIndv, Nonblocking: true},
		Family:        ParallelTransfer,
		AggregateOnly: true,
		Summary:       "MPI_File_iwrite: every process writes its share of size bytes, individual pointers through a view of its block; overlapped with IMB's CPU exploit",
	})
}
