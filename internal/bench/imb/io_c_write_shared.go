package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerIO(&Spec{
		Name:    "C_Write_Shared",
		Order:   15,
		IO:      kernel.IO{Access: kernel.IOPut, Pos: kernel.IOShared, Collective: true},
		Family:  Collective,
		Modes:   true,
		Summary: "MPI_File_write_ordered: every process writes its share of size bytes, collectively, the shared pointer",
	})
}
