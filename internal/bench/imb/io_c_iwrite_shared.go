package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerIO(&Spec{
		Name:          "C_IWrite_Shared",
		Order:         16,
		IO:            kernel.IO{Access: kernel.IOPut, Pos: kernel.IOShared, Collective: true, Nonblocking: true},
		Family:        Collective,
		AggregateOnly: true,
		Summary:       "MPI_File_write_ordered_begin/_end: every process writes its share of size bytes, collectively, the shared pointer; overlapped with IMB's CPU exploit",
	})
}
