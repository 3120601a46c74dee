package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerIO(&Spec{
		Name:          "C_IRead_Indv",
		Order:         32,
		IO:            kernel.IO{Access: kernel.IOGet, Pos: kernel.IOIndv, Collective: true, Nonblocking: true},
		Family:        Collective,
		AggregateOnly: true,
		Summary:       "MPI_File_read_all_begin/_end: every process reads its share of size bytes, collectively, individual pointers through a view of its block; overlapped with IMB's CPU exploit",
	})
}
