package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerIO(&Spec{
		Name:          "P_Read_Expl",
		Order:         29,
		IO:            kernel.IO{Access: kernel.IOGet, Pos: kernel.IOExpl},
		Family:        ParallelTransfer,
		AggregateOnly: true,
		Summary:       "MPI_File_read_at: every process reads its share of size bytes, explicit offsets",
	})
}
