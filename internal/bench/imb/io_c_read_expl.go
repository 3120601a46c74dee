package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerIO(&Spec{
		Name:          "C_Read_Expl",
		Order:         35,
		IO:            kernel.IO{Access: kernel.IOGet, Pos: kernel.IOExpl, Collective: true},
		Family:        Collective,
		AggregateOnly: true,
		Summary:       "MPI_File_read_at_all: every process reads its share of size bytes, collectively, explicit offsets",
	})
}
