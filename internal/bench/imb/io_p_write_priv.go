package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerIO(&Spec{
		Name:    "P_Write_Priv",
		Order:   9,
		IO:      kernel.IO{Access: kernel.IOPut, Pos: kernel.IOIndv, Priv: true},
		Family:  ParallelTransfer,
		Modes:   true,
		Summary: "MPI_File_write: every process writes its share of size bytes, each process in a file of its own",
	})
}
