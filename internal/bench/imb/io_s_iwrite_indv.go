package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerIO(&Spec{
		Name:          "S_IWrite_Indv",
		Order:         2,
		IO:            kernel.IO{Access: kernel.IOPut, Pos: kernel.IOIndv, Priv: true, Single: true, Nonblocking: true},
		Family:        SingleTransfer,
		AggregateOnly: true,
		Summary:       "MPI_File_iwrite: one process writes size bytes in a file of its own, individual pointer; overlapped with IMB's CPU exploit",
	})
}
