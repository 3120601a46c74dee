package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerIO(&Spec{
		Name:    "Open_Close",
		Order:   37,
		IO:      kernel.IO{Access: kernel.IONone},
		Family:  Sync,
		NonAggr: true, // IMB counts its repetitions from -iter's msgs_nonaggr
		Summary: "MPI_File_open, a one-byte MPI_File_write, MPI_File_close, over all processes",
	})
}
