package main

// Output files of the analysis commands (import -o, archive export -o,
// report -o, -json of compare, check and explain): a file that is also one
// of the command's inputs is refused, and a regular file is written beside
// its target and renamed over it only when complete, so a failure leaves
// the old file (or none), never half a file.

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/google/renameio/v2"
)

// outFile is an output being written; commit makes it the file, discard
// drops it (a no-op after commit).
type outFile interface {
	io.Writer
	commit() error
	discard()
}

// createOutput opens path (named by flag in messages) for writing. inputs
// are the paths the command reads (files, the archive); a path that does
// not exist is no input. Devices, pipes and other non-regular files
// (/dev/null, /dev/stdout, a FIFO) are written in place.
func createOutput(flag, path string, inputs []string) (outFile, error) {
	target := path
	if t, err := filepath.EvalSymlinks(path); err == nil {
		target = t // write through a link, not over it
	}
	st, err := os.Stat(target)
	switch {
	case err == nil && !st.Mode().IsRegular():
		if st.IsDir() {
			return nil, usageErr("%s %s: is a directory", flag, path)
		}
		f, err := os.OpenFile(target, os.O_WRONLY, 0)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", flag, err)
		}
		return plainFile{f}, nil
	case err == nil:
		if err := refuseInput(flag, path, inputs); err != nil {
			return nil, err
		}
	case !errors.Is(err, os.ErrNotExist):
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	pf, err := renameio.NewPendingFile(target, renameio.WithTempDir(filepath.Dir(target)),
		renameio.WithPermissions(0o644), renameio.WithExistingPermissions())
	if err != nil {
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	return &pendingFile{pf, flag}, nil
}

// refuseInput fails when path is one of inputs (the same file, through
// links too): the command would destroy what it reads.
func refuseInput(flag, path string, inputs []string) error {
	if path == "" || path == "-" {
		return nil
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil
	}
	for _, in := range inputs {
		if ist, err := os.Stat(in); err == nil && os.SameFile(st, ist) {
			return usageErr("%s %s: that is an input of this command; write elsewhere", flag, path)
		}
	}
	return nil
}

type plainFile struct{ *os.File }

func (f plainFile) commit() error { return f.Close() }
func (f plainFile) discard()      { _ = f.Close() }

type pendingFile struct {
	*renameio.PendingFile
	flag string
}

func (f *pendingFile) commit() error {
	if err := f.CloseAtomicallyReplace(); err != nil {
		return fmt.Errorf("%s: %w", f.flag, err)
	}
	return nil
}

func (f *pendingFile) discard() { _ = f.Cleanup() }

// writeOutput writes path through write, refusing inputs (see
// createOutput); "" or "-" writes to stdout.
func writeOutput(stdout io.Writer, flag, path string, inputs []string, write func(io.Writer) error) error {
	if path == "" || path == "-" {
		return write(stdout)
	}
	f, err := createOutput(flag, path, inputs)
	if err != nil {
		return err
	}
	defer f.discard()
	if err := write(f); err != nil {
		return err
	}
	return f.commit()
}
