package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerEXT(&Spec{
		Name:  "Window",
		EXTOp: kernel.EXTWindow,
		Order: 1,
		// IMB times it as a collective and counts its sizes in the
		// reduction type; its repetitions are -iter's msgs_nonaggr
		Family:    Collective,
		Reduction: true,
		NonAggr:   true,
		Summary:   "MPI_Win_create of size bytes, fence, a put to oneself, fence, MPI_Win_free",
	})
}
