package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerIO(&Spec{
		Name:          "P_IRead_Expl",
		Order:         30,
		IO:            kernel.IO{Access: kernel.IOGet, Pos: kernel.IOExpl, Nonblocking: true},
		Family:        ParallelTransfer,
		AggregateOnly: true,
		Summary:       "MPI_File_iread_at: every process reads its share of size bytes, explicit offsets; overlapped with IMB's CPU exploit",
	})
}
