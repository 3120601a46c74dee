package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerIO(&Spec{
		Name:    "C_Write_Indv",
		Order:   13,
		IO:      kernel.IO{Access: kernel.IOPut, Pos: kernel.IOIndv, Collective: true},
		Family:  Collective,
		Modes:   true,
		Summary: "MPI_File_write_all: every process writes its share of size bytes, collectively, individual pointers through a view of its block",
	})
}
