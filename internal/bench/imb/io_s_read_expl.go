package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerIO(&Spec{
		Name:          "S_Read_Expl",
		Order:         21,
		IO:            kernel.IO{Access: kernel.IOGet, Pos: kernel.IOExpl, Priv: true, Single: true},
		Family:        SingleTransfer,
		AggregateOnly: true,
		Summary:       "MPI_File_read_at: one process reads size bytes in a file of its own, explicit offsets",
	})
}
