package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerIO(&Spec{
		Name:          "C_Read_Shared",
		Order:         33,
		IO:            kernel.IO{Access: kernel.IOGet, Pos: kernel.IOShared, Collective: true},
		Family:        Collective,
		AggregateOnly: true,
		Summary:       "MPI_File_read_ordered: every process reads its share of size bytes, collectively, the shared pointer",
	})
}
