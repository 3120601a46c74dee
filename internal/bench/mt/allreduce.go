package mt

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:     "AllReduceMT",
		Op:       kernel.MTAllReduce,
		Order:    10,
		Separate: true,
		Format:   Collective,
		Divide:   1,
		BWScale:  1,
		Summary:  "MPI_Allreduce (MPI_SUM) on every thread's communicator, each call timed, five barriers after it",
	})
}
