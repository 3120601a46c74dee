// Package pgtest runs throwaway PostgreSQL servers for the tests: Debian's
// server binaries (/usr/lib/postgresql/VERSION/bin, the newest), a data
// directory and a Unix socket of the server's own under /tmp, run as the
// postgres system user when the tests run as root, no TCP, ended by PID.
// Nothing is mocked: the archive's PostgreSQL back end is tested against
// the real server.
//
// Where the binaries are missing a test that asks for a server is skipped,
// unless GOMB_REQUIRE_POSTGRES=1 (the project's test script sets it),
// which makes it a failure.
package pgtest

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// Server is a running throwaway cluster.
type Server struct {
	Dir    string // the server's directory: its Unix socket, and data/ below
	Bin    string // the server binaries' directory
	cred   *syscall.Credential
	uid    int
	mu     sync.Mutex
	cmd    *exec.Cmd
	exited chan struct{}
	seq    atomic.Int32
}

// Superuser is the server's superuser role, trusted over the socket.
const Superuser = "postgres"

// Bin is the directory of the newest PostgreSQL server binaries, or why
// there is none.
func Bin() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	var ok []string
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			ok = append(ok, d)
		}
	}
	if len(ok) == 0 {
		return "", errors.New("no PostgreSQL server binaries (/usr/lib/postgresql/*/bin/initdb: apt-get install postgresql)")
	}
	version := func(d string) int { v, _ := strconv.Atoi(filepath.Base(filepath.Dir(d))); return v }
	sort.Slice(ok, func(i, j int) bool { return version(ok[i]) > version(ok[j]) })
	return ok[0], nil
}

// Require skips the test (or fails it, with GOMB_REQUIRE_POSTGRES=1) when
// there is no server to start.
func Require(t testing.TB) {
	t.Helper()
	if _, err := Bin(); err != nil {
		if os.Getenv("GOMB_REQUIRE_POSTGRES") == "1" {
			t.Fatalf("PostgreSQL required (GOMB_REQUIRE_POSTGRES=1), but %v", err)
		}
		t.Skipf("no PostgreSQL: %v", err)
	}
}

var dirSeq atomic.Int32

// owned matches the directories Start makes: the test process's PID, then
// a sequence number.
var owned = regexp.MustCompile(`^gomb-pg-([0-9]+)-[0-9]+$`)

// Start makes and starts a new cluster. Settings are more server settings
// (name=value), e.g. "fsync=off".
func Start(settings ...string) (*Server, error) {
	bin, err := Bin()
	if err != nil {
		return nil, err
	}
	sweep()
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("gomb-pg-%d-%d", os.Getpid(), dirSeq.Add(1)))
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, err
	}
	s := &Server{Dir: dir, Bin: bin, uid: os.Geteuid()}
	if os.Geteuid() == 0 { // the server refuses to run as root
		u, err := user.Lookup("postgres")
		if err != nil {
			return nil, fmt.Errorf("running as root and no postgres user to run the server as: %v", err)
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		s.cred, s.uid = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, uid
		if err := os.Chown(dir, uid, gid); err != nil {
			return nil, err
		}
	}
	if out, err := s.command(filepath.Join(bin, "initdb"), "-D", s.data(), "-U", Superuser, "-E", "UTF8",
		"--locale=C", "--no-sync", "--auth-local=trust", "--auth-host=reject").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("initdb: %v\n%s", err, out)
	}
	// The superuser is trusted over the socket; every other role gives
	// its password, as at a site.
	hba := "local all " + Superuser + " trust\nlocal all all scram-sha-256\n"
	if err := os.WriteFile(filepath.Join(s.data(), "pg_hba.conf"), []byte(hba), 0o600); err != nil {
		return nil, err
	}
	if s.cred != nil {
		os.Chown(filepath.Join(s.data(), "pg_hba.conf"), int(s.cred.Uid), int(s.cred.Gid))
	}
	conf := append([]string{"listen_addresses=''", "unix_socket_directories='" + dir + "'", "unix_socket_permissions=0777",
		"max_connections=200", "shared_buffers=32MB", "logging_collector=off", "log_min_messages=fatal"}, settings...)
	var b strings.Builder
	for _, c := range conf {
		b.WriteString(c + "\n")
	}
	f, err := os.OpenFile(filepath.Join(s.data(), "postgresql.conf"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return nil, err
	}
	f.WriteString(b.String())
	f.Close()
	if err := s.Restart(); err != nil {
		s.Stop()
		return nil, err
	}
	return s, nil
}

func (s *Server) data() string { return filepath.Join(s.Dir, "data") }

// command runs a server program as the server's user.
func (s *Server) command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	cmd.Dir = s.Dir
	if s.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: s.cred}
	}
	return cmd
}

// Restart starts the server on its data directory (after Stop or
// StopImmediate: it recovers from its WAL) and waits until it answers.
func (s *Server) Restart() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	cmd := s.command(filepath.Join(s.Bin, "postgres"), "-D", s.data())
	log, err := os.OpenFile(filepath.Join(s.Dir, "server.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		log.Close()
		return fmt.Errorf("postgres: %v", err)
	}
	log.Close()
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	s.cmd, s.exited = cmd, exited
	deadline := time.Now().Add(60 * time.Second)
	for {
		c, err := pgx.Connect(context.Background(), s.URL("postgres", Superuser, ""))
		if err == nil {
			c.Close(context.Background())
			return nil
		}
		select {
		case <-exited:
			b, _ := os.ReadFile(filepath.Join(s.Dir, "server.log"))
			return fmt.Errorf("postgres exited at start: %s", tailText(string(b)))
		default:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("postgres did not answer in 60 s: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func tailText(s string) string {
	if len(s) > 2000 {
		return s[len(s)-2000:]
	}
	return s
}

// PID is the server's (the postmaster's) process id; 0 when stopped.
func (s *Server) PID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return 0
	}
	return s.cmd.Process.Pid
}

// Stop shuts the server down (fast: SIGINT to its PID) and waits for it.
func (s *Server) Stop() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return nil
	}
	s.cmd.Process.Signal(syscall.SIGINT)
	select {
	case <-s.exited:
	case <-time.After(30 * time.Second):
		s.cmd.Process.Kill()
		<-s.exited
	}
	s.cmd = nil
	return nil
}

// StopImmediate stops the server as a crash would (pg_ctl stop -m
// immediate: no checkpoint, the next start recovers from the WAL).
func (s *Server) StopImmediate() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cmd == nil {
		return nil
	}
	out, err := s.command(filepath.Join(s.Bin, "pg_ctl"), "stop", "-D", s.data(), "-m", "immediate", "-w").CombinedOutput()
	if err != nil {
		return fmt.Errorf("pg_ctl stop -m immediate: %v\n%s", err, out)
	}
	<-s.exited
	s.cmd = nil
	return nil
}

// Remove stops the server and removes its directory.
func (s *Server) Remove() {
	s.Stop()
	os.RemoveAll(s.Dir)
}

// URL is a URL of database db as role user over the server's socket, with
// more query parameters (e.g. "schema=t1").
func (s *Server) URL(db, user, params string) string {
	q := "host=" + url.QueryEscape(s.Dir)
	if params != "" {
		q += "&" + params
	}
	return fmt.Sprintf("postgres://%s@/%s?%s", user, db, q)
}

// Exec runs SQL as the superuser in database db.
func (s *Server) Exec(db, sql string) error {
	ctx := context.Background()
	c, err := pgx.Connect(ctx, s.URL(db, Superuser, ""))
	if err != nil {
		return err
	}
	defer c.Close(ctx)
	_, err = c.Exec(ctx, sql)
	return err
}

// NewSchema is a schema name no other test of this server uses.
func (s *Server) NewSchema(prefix string) string {
	return fmt.Sprintf("%s%d", prefix, s.seq.Add(1))
}

// sweep stops the servers of test processes that no longer run (a killed
// test run leaves them) and removes their directories.
func sweep() {
	ents, _ := os.ReadDir(os.TempDir())
	for _, e := range ents {
		m := owned.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		if _, err := os.Stat("/proc/" + m[1]); !os.IsNotExist(err) {
			continue
		}
		dir := filepath.Join(os.TempDir(), e.Name())
		if b, err := os.ReadFile(filepath.Join(dir, "data", "postmaster.pid")); err == nil {
			if pid, err := strconv.Atoi(strings.SplitN(string(b), "\n", 2)[0]); err == nil && pid > 0 {
				if exe, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid)); strings.HasSuffix(exe, "/postgres") {
					syscall.Kill(pid, syscall.SIGQUIT)
					for i := 0; i < 100 && syscall.Kill(pid, 0) == nil; i++ {
						time.Sleep(50 * time.Millisecond)
					}
				}
			}
		}
		os.RemoveAll(dir)
	}
}

// Shared is one server for a test binary, started by the first test that
// asks (Require's rules) and stopped by StopShared, which the package's
// TestMain calls after its tests.
func Shared(t testing.TB) *Server {
	t.Helper()
	Require(t)
	shared.once.Do(func() { shared.s, shared.err = Start() })
	if shared.err != nil {
		t.Fatalf("PostgreSQL: %v", shared.err)
	}
	return shared.s
}

var shared struct {
	once sync.Once
	s    *Server
	err  error
}

// StopShared stops and removes the shared server, if one was started.
func StopShared() {
	if shared.s != nil {
		shared.s.Remove()
	}
}
