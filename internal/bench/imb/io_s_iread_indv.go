package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerIO(&Spec{
		Name:          "S_IRead_Indv",
		Order:         20,
		IO:            kernel.IO{Access: kernel.IOGet, Pos: kernel.IOIndv, Priv: true, Single: true, Nonblocking: true},
		Family:        SingleTransfer,
		AggregateOnly: true,
		Summary:       "MPI_File_iread: one process reads size bytes in a file of its own, individual pointer; overlapped with IMB's CPU exploit",
	})
}
