package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerIO(&Spec{
		Name:          "P_Read_Priv",
		Order:         27,
		IO:            kernel.IO{Access: kernel.IOGet, Pos: kernel.IOIndv, Priv: true},
		Family:        ParallelTransfer,
		AggregateOnly: true,
		Summary:       "MPI_File_read: every process reads its share of size bytes, each process in a file of its own",
	})
}
