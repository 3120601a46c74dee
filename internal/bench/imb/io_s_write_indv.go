package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerIO(&Spec{
		Name:    "S_Write_Indv",
		Order:   1,
		IO:      kernel.IO{Access: kernel.IOPut, Pos: kernel.IOIndv, Priv: true, Single: true},
		Family:  SingleTransfer,
		Modes:   true,
		Summary: "MPI_File_write: one process writes size bytes in a file of its own, individual pointer",
	})
}
