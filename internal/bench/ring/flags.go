package ring

// mpi-comm-bench's command-line syntax: its flags, each with its usage
// string (the one description gomb ring -help prints), and the checks no
// single flag can make.

import (
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gomb-hpc/gomb/internal/bench"
	"github.com/gomb-hpc/gomb/internal/cli"
)

// Register adds the monitor's flags to fs.
func (o *Options) Register(fs *flag.FlagSet) {
	fs.Func("msg-size", "`B` bytes per message (default 1048576; 1e6, 64k, 4m accepted)", func(s string) error {
		if v, err := strconv.ParseFloat(s, 64); err == nil && !strings.ContainsAny(s, "kKmM") {
			if v < 0 || v > 1<<40 || v != math.Trunc(v) {
				return fmt.Errorf("want a whole number of bytes, got %q", s)
			}
			o.MsgSize = int64(v)
			return nil
		}
		v, err := bench.ParseSize(s)
		o.MsgSize = v
		return err
	})
	fs.Var(cli.Float{P: &o.IntervalS, Min: 0, Max: 86400, What: "seconds"}, "interval", "`S` seconds between samples")
	fs.Var(cli.Int{P: &o.Count, Min: 0, What: "samples"}, "count", "`N` stop after N samples besides the cold one (0: run until stopped)")
	fs.BoolVar(&o.MemCopyLocal, "mem-copy-local", o.MemCopyLocal, "with one rank: memcpy (cudaMemcpy with --gpu) instead of MPI")
	fs.BoolVar(&o.GPU, "gpu", o.GPU, "buffers in GPU memory (the CUDA runtime is loaded at run time); staged through host memory if the MPI library is not CUDA-aware")
}

// Check is what no single flag can say.
func (o *Options) Check() error {
	switch {
	case !(o.IntervalS >= 0) || o.IntervalS > 86400:
		return fmt.Errorf("--interval must be between 0 and 86400 seconds, got %g", o.IntervalS)
	case o.Count < 0:
		return fmt.Errorf("--count must not be negative")
	case o.MsgSize > math.MaxInt32:
		return fmt.Errorf("--msg-size %d is above what one MPI call sends (%d)", o.MsgSize, math.MaxInt32)
	}
	return nil
}
