package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerIO(&Spec{
		Name:    "P_Write_Indv",
		Order:   5,
		IO:      kernel.IO{Access: kernel.IOPut, Pos: kernel.IOIndv},
		Family:  ParallelTransfer,
		Modes:   true,
		Summary: "MPI_File_write: every process writes its share of size bytes, individual pointers through a view of its block",
	})
}
