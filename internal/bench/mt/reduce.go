package mt

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:     "ReduceMT",
		Op:       kernel.MTReduce,
		Order:    9,
		Separate: true,
		Format:   Collective,
		Divide:   1,
		BWScale:  1,
		Summary:  "MPI_Reduce (MPI_SUM) to rank 0 on every thread's communicator, each call timed, five barriers after it",
	})
}
