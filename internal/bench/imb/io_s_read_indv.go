package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerIO(&Spec{
		Name:          "S_Read_Indv",
		Order:         19,
		IO:            kernel.IO{Access: kernel.IOGet, Pos: kernel.IOIndv, Priv: true, Single: true},
		Family:        SingleTransfer,
		AggregateOnly: true,
		Summary:       "MPI_File_read: one process reads size bytes in a file of its own, individual pointer",
	})
}
