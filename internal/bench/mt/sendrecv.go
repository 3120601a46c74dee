package mt

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:    "SendRecvMT",
		Op:      kernel.MTSendRecv,
		Order:   3,
		Format:  PointToPoint,
		Divide:  1,
		BWScale: 2,
		Summary: "MPI_Sendrecv to rank i + stride from rank i - stride (a ring), every thread on its own communicator",
	})
}
