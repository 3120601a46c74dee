package textfmt

import (
	"fmt"

	"github.com/gomb-hpc/gomb/result"
)

// MPIErrorNote is the comment (without its "# ") that every text layout
// prints for a row of status mpi-error, a benchmark an MPI error ended
// on every rank in a job that went on: "mpi-error: Sendrecv, np 2, 4
// bytes: MPI_Send: MPI error 2: ...". Readers of the layouts skip it as
// they skip every comment.
func MPIErrorNote(r *result.Result) string {
	return fmt.Sprintf("%s: %s, np %d, %d bytes: %s", result.StatusMPIError, r.Benchmark, r.NP, r.Bytes, r.Reason)
}
