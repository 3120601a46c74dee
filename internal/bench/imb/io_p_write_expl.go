package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerIO(&Spec{
		Name:    "P_Write_Expl",
		Order:   11,
		IO:      kernel.IO{Access: kernel.IOPut, Pos: kernel.IOExpl},
		Family:  ParallelTransfer,
		Modes:   true,
		Summary: "MPI_File_write_at: every process writes its share of size bytes, explicit offsets",
	})
}
