package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	registerRMA(&Spec{
		Name:     "Truly_passive_put",
		IMBRMAOp: kernel.IMBRMATrulyPassivePut,
		Default:  true,
		Order:    17,
		Family:   SingleTransfer,
		Passive:  true,
		Comments: []string{
			"The benchmark measures execution time of MPI_Put for 2 cases:",
			"1) The target is waiting in MPI_Barrier call (t_pure value)",
			"2) The target performs computation and then enters MPI_Barrier routine (t_ovrl value)",
		},
		Summary: "MPI_Put + MPI_Win_flush + MPI_Barrier from rank 0 to rank 1, with rank 1 in MPI_Barrier (t_pure), then computing first (t_ovrl)",
	})
}
