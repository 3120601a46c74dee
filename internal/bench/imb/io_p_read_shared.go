package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerIO(&Spec{
		Name:          "P_Read_Shared",
		Order:         25,
		IO:            kernel.IO{Access: kernel.IOGet, Pos: kernel.IOShared},
		Family:        ParallelTransfer,
		AggregateOnly: true,
		Summary:       "MPI_File_read_shared: every process reads its share of size bytes, the shared pointer",
	})
}
