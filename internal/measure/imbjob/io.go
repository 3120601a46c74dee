package imbjob

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/gomb-hpc/gomb/internal/bench/imb"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/session"
)

// ioDirectory settles IMB-IO's directory: -dir's, which rank 0 checks, or
// a new one rank 0 makes under the working directory; every rank gets its
// name. done, called on every rank after the run, removes the files (and
// the directory gomb made); if the job ends early, rank 0 removes what it
// can then.
func ioDirectory(s *session.Session, o *imb.Options) (done func(), err error) {
	made := o.IODir == ""
	if err := s.OnRoot(func() error {
		if made {
			d, err := os.MkdirTemp(".", "gomb-io-")
			if err != nil {
				return fmt.Errorf("IMB-IO's directory: %v", err)
			}
			o.IODir = d
			return nil
		}
		if fi, err := os.Stat(o.IODir); err != nil || !fi.IsDir() {
			return cli.Usage("-dir %s: not a directory", o.IODir)
		}
		// The files are removed after the run: one there before is
		// someone's (another imb-io job's, or a user's), never ours.
		if left := imb.IOFiles(o.IODir); len(left) > 0 {
			return cli.Usage("-dir %s already holds %s, a name IMB-IO writes (another imb-io job in this directory?): choose another -dir or remove it", o.IODir, filepath.Base(left[0]))
		}
		return nil
	}); err != nil {
		return nil, err
	}
	if err := s.BcastJSON(&o.IODir); err != nil {
		return nil, err
	}
	dir := o.IODir
	clean := func() {
		for _, f := range imb.IOFiles(dir) {
			os.Remove(f)
		}
		if made && s.Rank == 0 {
			os.Remove(dir)
		}
	}
	if s.Rank == 0 {
		s.AtExit(clean)
	}
	return func() {
		// once every rank is here every file is closed: the others remove
		// theirs, then rank 0 what is left and the directory
		if s.World.Barrier() != nil {
			return
		}
		if s.Rank != 0 {
			clean()
		}
		if s.World.Barrier() == nil && s.Rank == 0 {
			clean()
			s.ClearAtExit()
		}
	}, nil
}
