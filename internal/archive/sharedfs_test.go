package archive

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestNetworkFS: each network file system by its statfs(2) magic number
// (linux/magic.h, and the vendors' for Lustre, GPFS, BeeGFS, PanFS); local
// ones are not.
func TestNetworkFS(t *testing.T) {
	cases := []struct {
		magic uint32
		want  string
	}{
		{0x6969, "NFS"},
		{0x0BD00BD0, "Lustre"},
		{0x47504653, "GPFS"},
		{0x19830326, "BeeGFS"},
		{0xFF534D42, "CIFS"},
		{0xFE534D42, "SMB2"},
		{0x517B, "SMB"},
		{0x00C36400, "CephFS"},
		{0x5346414F, "AFS"},
		{0x01161970, "GFS2"},
		{0x7461636F, "OCFS2"},
		{0xAAD7AAEA, "PanFS"},
		{0xEF53, ""},     // ext4
		{0x58465342, ""}, // XFS
		{0x01021994, ""}, // tmpfs
		{0x9123683E, ""}, // Btrfs
		{0x794C7630, ""}, // overlayfs
		{0x65735546, ""}, // FUSE: local or not, statfs cannot tell
		{0x2FC12FC1, ""}, // ZFS
		{0x00000000, ""},
	}
	for _, c := range cases {
		if got := fsName(c.magic); got != c.want {
			t.Errorf("magic %#x: %q, want %q", c.magic, got, c.want)
		}
	}
	// this machine's temporary directory is local, and its locks work
	dir := t.TempDir()
	if fs, err := checkSharedFS(dir); fs != "" || err != nil {
		t.Errorf("%s: %q %v", dir, fs, err)
	}
	if err := probeLocks(dir); err != nil {
		t.Errorf("locks in %s: %v", dir, err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("the probe left %v", ents)
	}
}

// TestLockError: the answers of a lock attempt that mean the file system
// has no working locks, and those that mean it has.
func TestLockError(t *testing.T) {
	for _, c := range []struct {
		err  error
		fail bool
	}{
		{nil, false},
		{unix.EAGAIN, false}, // held by another process: locks work
		{unix.EACCES, false},
		{unix.ENOLCK, true}, // NFS without its lock service
		{unix.ENOSYS, true}, // Lustre mounted without flock
		{unix.EINVAL, true},
		{unix.EOPNOTSUPP, true},
		{unix.EIO, true},
	} {
		if err := lockError(c.err); (err != nil) != c.fail {
			t.Errorf("%v: %v", c.err, err)
		}
	}
}

// TestSharedWarning: the line names the archive, the file system and both
// safe ways, on one line.
func TestSharedWarning(t *testing.T) {
	w := sharedWarning("/home/ann/.local/share/gomb/archive.db", "NFS")
	for _, want := range []string{"/home/ann/.local/share/gomb/archive.db", "NFS", "postgres://", "-json", "archive add"} {
		if !strings.Contains(w, want) || strings.Contains(w, "\n") {
			t.Errorf("%q lacks %q", w, want)
		}
	}
}

// TestSharedFSJournal: an archive on a network file system uses the
// rollback journal, not WAL, says so once, and works; the same file
// opened on a local one is WAL again. (This machine mounts no network
// file system: its kernel has neither NFS nor CIFS; the detection is
// tested by magic number above.)
func TestSharedFSJournal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.db")
	db, err := openSQLiteOn(path, "NFS")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(db.Warning, "is on NFS") {
		t.Errorf("warning %q", db.Warning)
	}
	if _, _, err := db.Add(synth(1, 4)); err != nil {
		t.Fatal(err)
	}
	mode := func(db *DB) string {
		var m string
		if err := db.db.QueryRow(`PRAGMA journal_mode`).Scan(&m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	if m := mode(db); m != "delete" {
		t.Errorf("journal %s on NFS, want delete", m)
	}
	db.Close()
	if _, err := os.Stat(path + "-wal"); err == nil {
		t.Error("a WAL file on NFS")
	}
	db = openAt(t, path)
	if m := mode(db); m != "wal" || db.Warning != "" {
		t.Errorf("journal %s, warning %q on a local file system", m, db.Warning)
	}
	if runs, _ := db.List(Selector{}); len(runs) != 1 {
		t.Errorf("%d runs", len(runs))
	}
}
