package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerIO(&Spec{
		Name:          "P_IRead_Indv",
		Order:         24,
		IO:            kernel.IO{Access: kernel.IOGet, Pos: kernel.IOIndv, Nonblocking: true},
		Family:        ParallelTransfer,
		AggregateOnly: true,
		Summary:       "MPI_File_iread: every process reads its share of size bytes, individual pointers through a view of its block; overlapped with IMB's CPU exploit",
	})
}
