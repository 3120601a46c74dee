package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerIO(&Spec{
		Name:          "P_Read_Indv",
		Order:         23,
		IO:            kernel.IO{Access: kernel.IOGet, Pos: kernel.IOIndv},
		Family:        ParallelTransfer,
		AggregateOnly: true,
		Summary:       "MPI_File_read: every process reads its share of size bytes, individual pointers through a view of its block",
	})
}
