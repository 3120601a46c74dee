package cli

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
	"golang.org/x/sys/unix"
)

// OutFile is an output being written; Commit makes it the file, Discard
// drops it (a no-op after Commit).
type OutFile interface {
	io.Writer
	Commit() error
	Discard()
}

// CreateOutput opens path (named by flag in messages) for writing. inputs
// are the paths the command reads (files, the archive); a path that does
// not exist is no input. Devices, pipes and other non-regular files
// (/dev/null, /dev/stdout, a FIFO) are written in place.
func CreateOutput(flag, path string, inputs []string) (OutFile, error) {
	target := path
	if t, err := filepath.EvalSymlinks(path); err == nil {
		target = t // write through a link, not over it
	}
	st, err := os.Stat(target)
	switch {
	case err == nil && !st.Mode().IsRegular():
		if st.IsDir() {
			return nil, Usage("%s %s: is a directory", flag, path)
		}
		f, err := os.OpenFile(target, os.O_WRONLY, 0)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", flag, err)
		}
		return plainFile{f}, nil
	case err == nil:
		if err := RefuseInput(flag, path, inputs); err != nil {
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

// RefuseInput fails when path is one of inputs (the same file, through
// links too): the command would destroy what it reads.
func RefuseInput(flag, path string, inputs []string) error {
	if path == "" || path == "-" {
		return nil
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil
	}
	for _, in := range inputs {
		if ist, err := os.Stat(in); err == nil && os.SameFile(st, ist) {
			return Usage("%s %s: that is an input of this command; write elsewhere", flag, path)
		}
	}
	return nil
}

type plainFile struct{ *os.File }

func (f plainFile) Commit() error { return f.Close() }
func (f plainFile) Discard()      { _ = f.Close() }

type pendingFile struct {
	*renameio.PendingFile
	flag string
}

func (f *pendingFile) Commit() error {
	if err := f.CloseAtomicallyReplace(); err != nil {
		return fmt.Errorf("%s: %w", f.flag, err)
	}
	return nil
}

func (f *pendingFile) Discard() { _ = f.Cleanup() }

// WriteOutput writes path through write, refusing inputs (see
// CreateOutput); "" or "-" writes to stdout.
func WriteOutput(stdout io.Writer, flag, path string, inputs []string, write func(io.Writer) error) error {
	if path == "" || path == "-" {
		return write(stdout)
	}
	f, err := CreateOutput(flag, path, inputs)
	if err != nil {
		return err
	}
	defer f.Discard()
	if err := write(f); err != nil {
		return err
	}
	return f.Commit()
}

// Named is a file a command line names, and the flag that names it.
type Named struct{ Flag, Path string }

// Distinct fails when one of outputs names the same file as any other
// file the command names (inputs, or another of outputs): the command
// would destroy what it reads, or one of its outputs another. Two names
// are the same file when both exist and are (links count), or when
// neither exists and their absolute paths are equal. "" and "-" name no
// file; devices, pipes and other non-regular files are written in place
// and conflict with nothing.
func Distinct(outputs, inputs []Named) error {
	all := append(append([]Named{}, outputs...), inputs...)
	for i, o := range outputs {
		for j, n := range all {
			if i != j && sameFile(o.Path, n.Path) {
				return Usage("%s %s: that is also %s; write elsewhere", o.Flag, o.Path, n.Flag)
			}
		}
	}
	return nil
}

func sameFile(a, b string) bool {
	if a == "" || a == "-" || b == "" || b == "-" {
		return false
	}
	sa, ea := os.Stat(a)
	sb, eb := os.Stat(b)
	switch {
	case ea == nil && eb == nil:
		return sa.Mode().IsRegular() && os.SameFile(sa, sb)
	case ea != nil && eb != nil:
		aa, err1 := filepath.Abs(a)
		ab, err2 := filepath.Abs(b)
		return err1 == nil && err2 == nil && aa == ab
	}
	return false
}

// StdoutClosed reports whether the caller closed standard output (gomb
// >&-). The Go runtime opens /dev/null read-write in place of a closed
// standard descriptor, so that no file gomb opens takes its number; a
// shell's >/dev/null opens it write-only. Output to a closed standard
// output is lost, so gomb fails rather than report success.
func StdoutClosed() bool {
	var st, null unix.Stat_t
	if unix.Fstat(1, &st) != nil || unix.Stat(os.DevNull, &null) != nil || st.Rdev != null.Rdev || st.Mode&unix.S_IFMT != unix.S_IFCHR {
		return false
	}
	fl, err := unix.FcntlInt(1, unix.F_GETFL, 0)
	return err == nil && fl&unix.O_ACCMODE == unix.O_RDWR
}

// ClosedOutput is standard output that the caller closed: what is
// written there is lost, so writing fails.
type ClosedOutput struct{}

func (ClosedOutput) Write([]byte) (int, error) {
	return 0, errors.New("write to standard output: it is closed")
}

// Print writes through print to w and returns the first error a write
// met: a listing or help to a full disk or a closed pipe fails, as every
// other output does.
func Print(w io.Writer, print func(io.Writer)) error {
	sw := &stickyWriter{w: w}
	print(sw)
	if sw.err != nil {
		return &ExitError{Code: ExitFailure, Err: fmt.Errorf("write standard output: %w", sw.err)}
	}
	return nil
}

// stickyWriter keeps the first error of its writes and drops what follows.
type stickyWriter struct {
	w   io.Writer
	err error
}

func (s *stickyWriter) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(p)
	s.err = err
	return n, err
}
