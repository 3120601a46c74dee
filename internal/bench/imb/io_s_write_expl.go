package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerIO(&Spec{
		Name:    "S_Write_Expl",
		Order:   3,
		IO:      kernel.IO{Access: kernel.IOPut, Pos: kernel.IOExpl, Priv: true, Single: true},
		Family:  SingleTransfer,
		Modes:   true,
		Summary: "MPI_File_write_at: one process writes size bytes in a file of its own, explicit offsets",
	})
}
