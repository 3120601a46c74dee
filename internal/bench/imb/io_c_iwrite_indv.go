package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerIO(&Spec{
		Name:          "C_IWrite_Indv",
		Order:         14,
		IO:            kernel.IO{Access: kernel.IOPut, Pos: kernel.IOIndv, Collective: true, Nonblocking: true},
		Family:        Collective,
		AggregateOnly: true,
		Summary:       "MPI_File_write_all_begin/_end: every process writes its share of size bytes, collectively, individual pointers through a view of its block; overlapped with IMB's CPU exploit",
	})
}
