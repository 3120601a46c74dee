package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerIO(&Spec{
		Name:          "P_IWrite_Expl",
		Order:         12,
		IO:            kernel.IO{Access: kernel.IOPut, Pos: kernel.IOExpl, Nonblocking: true},
		Family:        ParallelTransfer,
		AggregateOnly: true,
		Summary:       "MPI_File_iwrite_at: every process writes its share of size bytes, explicit offsets; overlapped with IMB's CPU exploit",
	})
}
