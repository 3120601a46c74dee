package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerIO(&Spec{
		Name:          "S_IWrite_Expl",
		Order:         4,
		IO:            kernel.IO{Access: kernel.IOPut, Pos: kernel.IOExpl, Priv: true, Single: true, Nonblocking: true},
		Family:        SingleTransfer,
		AggregateOnly: true,
		Summary:       "MPI_File_iwrite_at: one process writes size bytes in a file of its own, explicit offsets; overlapped with IMB's CPU exploit",
	})
}
