package mt

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:     "BcastMT",
		Op:       kernel.MTBcast,
		Order:    8,
		Separate: true,
		Format:   Collective,
		Divide:   1,
		BWScale:  1,
		Summary:  "MPI_Bcast from rank 0 on every thread's communicator, each call timed, five barriers after it",
	})
}
