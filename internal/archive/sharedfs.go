package archive

import (
	"errors"
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// SQLite on a shared file system. WAL keeps its index in shared memory,
// which only the processes of one host share: over NFS, Lustre, GPFS and
// the like, writers on two hosts each see their own index, and SQLite
// says WAL is unsupported there. There the archive uses the rollback
// journal, which relies on the file system's POSIX locks; a file system
// whose locks do not work (Lustre mounted without flock, NFS without its
// lock service) is refused, since writers there would overwrite each
// other's pages. Even with working locks, several hosts writing one
// SQLite file over a network file system is what SQLite's authors advise
// against: gomb says so, once, with the two safe ways.

// networkFS are the file systems, by statfs(2) magic number, on which the
// archive's directory makes an SQLite archive a shared one.
var networkFS = map[uint32]string{
	0x6969:     "NFS",
	0x0BD00BD0: "Lustre",
	0x47504653: "GPFS",
	0x19830326: "BeeGFS",
	0xFF534D42: "CIFS",
	0xFE534D42: "SMB2",
	0x517B:     "SMB",
	0x00C36400: "CephFS",
	0x5346414F: "AFS",
	0x01161970: "GFS2",
	0x7461636F: "OCFS2",
	0xAAD7AAEA: "PanFS",
}

// fsName is the name of the network file system of statfs(2) magic number
// m; "" for any other.
func fsName(m uint32) string { return networkFS[m] }

// sharedFS is the network file system dir is on ("" for none, or where
// statfs cannot tell).
func sharedFS(dir string) string {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return ""
	}
	return fsName(uint32(st.Type))
}

// checkSharedFS is the network file system dir is on (""), after a probe
// of its locks: where they do not work, the error says so.
func checkSharedFS(dir string) (string, error) {
	fs := sharedFS(dir)
	if fs == "" {
		return "", nil
	}
	if err := probeLocks(dir); err != nil {
		return fs, fmt.Errorf("the directory is on %s, whose locks do not work here (%v): an SQLite archive "+
			"there would be corrupted by two writers; use a PostgreSQL archive (-archive postgres://...) or a local disk", fs, err)
	}
	return fs, nil
}

// sharedWarning is the line said once where an SQLite archive is on a
// network file system.
func sharedWarning(path, fs string) string {
	return fmt.Sprintf("gomb: archive %s is on %s: writers on several hosts at once are not safe there; "+
		"use a PostgreSQL archive (-archive postgres://...), or -json per job and one 'gomb archive add' afterwards", path, fs)
}

// lockWait is how long probeLocks waits for the file system to answer a
// lock (NFS without its lock service may never answer).
const lockWait = 10 * time.Second

// probeLocks takes and releases a POSIX lock, as SQLite's, on a file of
// its own in dir (never on the archive: closing any descriptor of a file
// drops every lock the process holds on it).
func probeLocks(dir string) error {
	f, err := os.CreateTemp(dir, ".gomb-lockprobe-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	defer f.Close()
	done := make(chan error, 1)
	go func() {
		lk := unix.Flock_t{Type: unix.F_WRLCK, Start: 0, Len: 1}
		err := unix.FcntlFlock(f.Fd(), unix.F_SETLK, &lk)
		if err == nil {
			lk.Type = unix.F_UNLCK
			err = unix.FcntlFlock(f.Fd(), unix.F_SETLK, &lk)
		}
		done <- err
	}()
	select {
	case err := <-done:
		return lockError(err)
	case <-time.After(lockWait):
		return fmt.Errorf("a lock was not answered in %v", lockWait)
	}
}

// lockError is nil when a lock attempt's error says nothing against the
// file system's locks (none, or the lock held by another process), else
// what it says (ENOLCK: NFS without its lock service; ENOSYS: Lustre
// mounted without flock; EINVAL, EOPNOTSUPP: no locks at all).
func lockError(err error) error {
	if err == nil || errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EACCES) {
		return nil
	}
	return fmt.Errorf("fcntl lock: %v", err)
}
