package imb

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"

	"github.com/gomb-hpc/gomb/internal/kernel"
)

// IOPart is an IMB-IO benchmark's part of its Spec (kernel.IMBIO).
type IOPart struct {
	// IO is its kernel: what it does, how it positions, which processes
	// do the I/O.
	IO kernel.IO
	// AggregateOnly: it runs in IMB's aggregate mode alone (the reads,
	// the I variants).
	AggregateOnly bool
}

// registerIO registers an IMB-IO benchmark of ioTable:
// IMB-IO's default list (all of them) in its order, a bandwidth column on
// every table with a size.
func registerIO(s *Spec) {
	s.Suite, s.Kernel, s.Default, s.TimeScale = SuiteIO, kernel.IMBIO, true, 1
	s.Overlap = s.IO.Nonblocking
	if s.Family != Sync {
		s.BWScale = 1
		s.Buffers = SameBuffers
	} else {
		s.Buffers = func(int64, int) (int64, int64) { return 0, 0 } // Open_Close moves no buffer
	}
	Register(s)
}

// ioRecords is IMB-IO's MSGSPERSAMPLE (IMB_settings_io.h), which its file
// length takes whatever -iter says.
const ioRecords = 50

// IOFileBytes is the length IMB-IO gives the file of a table
// (IMB_init_file): the largest size's records up to the overall volume,
// at most ioRecords of them; with a file per rank, a procs-th of that
// (and room for the uneven split's rounding).
func (o *Options) IOFileBytes(s *Spec, procs int) int64 {
	size := int64(0)
	for _, l := range o.Sizes {
		size = max(size, l)
	}
	if size == 0 {
		size = int64(1) << o.MsgLogMax
	}
	vol := int64(o.OverallVolMiB) << 20
	total := max(size, vol)
	if vol/size > ioRecords {
		total = size * ioRecords
	}
	if s.IO.Priv {
		np := int64(procs)
		total = (total + np - 1) / np
		if size%np != 0 {
			total += assignSize * ioRecords
		}
	}
	return total
}

// IOProcs is how many processes of np do a table's I/O (IMB's
// all_io_procs): one for the S_ benchmarks, all otherwise.
func (s *Spec) IOProcs(np int) int {
	if s.IO.Single {
		return 1
	}
	return np
}

// ioFileName matches the names IOFileName gives: IMB_out,
// IMB_out_<rank>, IMB_out_g<group>, IMB_out_g<group>_<rank>.
var ioFileName = regexp.MustCompile(`^IMB_out(_g[0-9]+)?(_[0-9]+)?$`)

// IOFiles lists the files in dir named as IMB-IO's files are named: what
// a run removes after itself, and what must not be there before it.
func IOFiles(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var out []string
	for _, e := range entries {
		if !e.IsDir() && ioFileName.MatchString(e.Name()) {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	return out
}

// IsIOFile says whether path names, in dir, a file IMB-IO writes and a
// run removes after itself (the same directory by their absolute paths).
func IsIOFile(path, dir string) bool {
	if path == "" || path == "-" || dir == "" {
		return false
	}
	p, err1 := filepath.Abs(path)
	d, err2 := filepath.Abs(dir)
	return err1 == nil && err2 == nil && filepath.Dir(p) == d && ioFileName.MatchString(filepath.Base(p))
}

// IOFileName is the file a rank of a table works on, in dir, as IMB-IO
// names it: IMB_out, with a file per rank IMB_out_<world rank>, with
// -multi IMB_out_g<group> (and _<world rank>).
func (o *Options) IOFileName(dir string, s *Spec, group, worldRank int) string {
	name := "IMB_out"
	if o.Multi >= 0 {
		name += fmt.Sprintf("_g%d", group)
	}
	if s.IO.Priv {
		name += fmt.Sprintf("_%d", worldRank)
	}
	return filepath.Join(dir, name)
}
