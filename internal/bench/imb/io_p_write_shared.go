package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerIO(&Spec{
		Name:    "P_Write_Shared",
		Order:   7,
		IO:      kernel.IO{Access: kernel.IOPut, Pos: kernel.IOShared},
		Family:  ParallelTransfer,
		Modes:   true,
		Summary: "MPI_File_write_shared: every process writes its share of size bytes, the shared pointer",
	})
}
