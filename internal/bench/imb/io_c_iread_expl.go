package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerIO(&Spec{
		Name:          "C_IRead_Expl",
		Order:         36,
		IO:            kernel.IO{Access: kernel.IOGet, Pos: kernel.IOExpl, Collective: true, Nonblocking: true},
		Family:        Collective,
		AggregateOnly: true,
		Summary:       "MPI_File_read_at_all_begin/_end: every process reads its share of size bytes, collectively, explicit offsets; overlapped with IMB's CPU exploit",
	})
}
