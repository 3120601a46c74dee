package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerIO(&Spec{
		Name:    "C_Write_Expl",
		Order:   17,
		IO:      kernel.IO{Access: kernel.IOPut, Pos: kernel.IOExpl, Collective: true},
		Family:  Collective,
		Modes:   true,
		Summary: "MPI_File_write_at_all: every process writes its share of size bytes, collectively, explicit offsets",
	})
}
