package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerIO(&Spec{
		Name:          "S_IRead_Expl",
		Order:         22,
		IO:            kernel.IO{Access: kernel.IOGet, Pos: kernel.IOExpl, Priv: true, Single: true, Nonblocking: true},
		Family:        SingleTransfer,
		AggregateOnly: true,
		Summary:       "MPI_File_iread_at: one process reads size bytes in a file of its own, explicit offsets; overlapped with IMB's CPU exploit",
	})
}
