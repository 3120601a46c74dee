package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerIO(&Spec{
		Name:          "C_IWrite_Expl",
		Order:         18,
		IO:            kernel.IO{Access: kernel.IOPut, Pos: kernel.IOExpl, Collective: true, Nonblocking: true},
		Family:        Collective,
		AggregateOnly: true,
		Summary:       "MPI_File_write_at_all_begin/_end: every process writes its share of size bytes, collectively, explicit offsets; overlapped with IMB's CPU exploit",
	})
}
