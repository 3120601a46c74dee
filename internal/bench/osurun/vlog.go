package osurun

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/internal/mpi"
)

// vlogLimit bounds the wrong elements one check logs; the log says how
// many more there were.
const vlogLimit = 1 << 16

// logMismatches appends one check's wrong elements to this rank's
// validation log, DIR/log-RANK.log, in OSU 7.4's layout: a line naming the
// size, the iteration (gomb's check iteration) and the data type, then
// Position, Expected and Actual of every wrong element (positions count
// the elements the check compared, in order).
func logMismatches(dir string, rank int, size int64, iter int, t kernel.Datatype, m []mpi.Mismatch, dropped int64) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("-c log: %w", err)
	}
	f, err := os.OpenFile(filepath.Join(dir, fmt.Sprintf("log-%d.log", rank)), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return fmt.Errorf("-c log: %w", err)
	}
	w := bufio.NewWriter(f)
	fmt.Fprintf(w, "Size: %d, Iteration:%d, Datatype: %s\n", size, iter, t)
	fmt.Fprintf(w, "%-10s%18s%18s\n", "Position", "Expected", "Actual")
	for _, x := range m {
		if t == kernel.Float || t == kernel.Double {
			fmt.Fprintf(w, "%-10d%18f%18f\n", x.Pos, x.Want, x.Got)
		} else {
			fmt.Fprintf(w, "%-10d%18d%18d\n", x.Pos, int64(x.Want), int64(x.Got))
		}
	}
	if dropped > 0 {
		fmt.Fprintf(w, "... and %d more wrong elements\n", dropped)
	}
	err = w.Flush()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("-c log: %w", err)
	}
	return nil
}
