package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerIO(&Spec{
		Name:          "C_Read_Indv",
		Order:         31,
		IO:            kernel.IO{Access: kernel.IOGet, Pos: kernel.IOIndv, Collective: true},
		Family:        Collective,
		AggregateOnly: true,
		Summary:       "MPI_File_read_all: every process reads its share of size bytes, collectively, individual pointers through a view of its block",
	})
}
