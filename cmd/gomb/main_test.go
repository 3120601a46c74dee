package main

import (
	"bytes"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gomb-hpc/gomb/internal/bench/imb"
	"github.com/gomb-hpc/gomb/internal/cli"
	"github.com/gomb-hpc/gomb/internal/kernel"
	"github.com/gomb-hpc/gomb/internal/pgtest"
)

func TestCommandsWithoutMPI(t *testing.T) {
	cases := []struct {
		args     []string
		code     int
		out, err string
	}{
		{[]string{"help"}, 0, "Commands:", ""},
		{[]string{"version"}, 0, "gomb " + version, ""},
		{[]string{"imb", "-help"}, 0, "Examples:", ""},
		{[]string{"imb", "-list"}, 0, "Reduce_scatter_block", ""},
		{[]string{"bogus"}, cli.ExitUsage, "", `unknown command "bogus"`},
		{nil, cli.ExitUsage, "", ""},
		{[]string{"version", "x"}, cli.ExitUsage, "", ""},
	}
	for _, c := range cases {
		var so, se bytes.Buffer
		err := run(&so, &se, c.args)
		if got := exitCodeOf(err); got != c.code {
			t.Errorf("%v: exit %d, want %d (%v)", c.args, got, c.code, err)
		}
		if !strings.Contains(so.String(), c.out) {
			t.Errorf("%v: stdout lacks %q:\n%s", c.args, c.out, so.String())
		}
		if c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%v: error %v, want %q", c.args, err, c.err)
		}
	}
	var so bytes.Buffer
	run(&so, &so, []string{"imb", "-list"})
	if n := strings.Count(so.String(), "\n"); n != 26 {
		t.Errorf("-list prints %d lines, want a title and 25 benchmarks", n)
	}
}

// TestListingsToFullDisk: every help, listing and version written to a
// full disk fails with exit status 1, as every other output does (they
// exited 0, and a help panicked).
func TestListingsToFullDisk(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer full.Close()
	calls := [][]string{{"help"}, {"version"}, {"archive", "list", "-h"}, {"osu", "latency", "-list"}}
	for _, c := range commands {
		if c.usage == nil {
			continue // version: no flags
		}
		calls = append(calls, []string{c.name, "-help"})
		if c.usage.fs.Lookup("list") != nil {
			calls = append(calls, []string{c.name, "-list"})
		}
	}
	for _, args := range calls {
		var se bytes.Buffer
		err := run(full, &se, args)
		if got := exitCodeOf(err); got != cli.ExitFailure || !strings.Contains(err.Error(), "no space left on device") {
			t.Errorf("%v > /dev/full: exit %d (%v), want %d and the write's error", args, got, err, cli.ExitFailure)
		}
	}
	if len(calls) < 25 {
		t.Errorf("only %d listings", len(calls))
	}
}

func exitCodeOf(err error) int {
	if err == nil {
		return 0
	}
	return cli.Code(err)
}

func TestParseIMB(t *testing.T) {
	cfg, err := parseIMBSuite(imb.Suite, []string{"PingPong", "-npmin", "4", "Allreduce", "-off_cache", "-1", "-iter", "100,10",
		"-msgsize", "0,1k", "-map", "2x3", "-sync", "off", "-json", "x.jsonl", "Barrier"})
	if err != nil {
		t.Fatal(err)
	}
	o := cfg.Options
	if strings.Join(cfg.Names, ",") != "PingPong,Allreduce,Barrier" || o.NPMin != 4 || !o.OffCache || o.CacheMB != 8 ||
		o.CacheLine != 64 || o.MsgsPerSample != 100 || o.OverallVolMiB != 10 || o.MsgsNonAggr != 100 ||
		len(o.Sizes) != 2 || o.Sizes[1] != 1024 || o.MapP != 2 || o.MapQ != 3 || o.Sync || cfg.JSON != "x.jsonl" {
		t.Errorf("parsed %+v / %+v", cfg, o)
	}
	for _, bad := range [][]string{{"-iter", "1,2,3,4"}, {"-off_cache", "x"}, {"-map", "2by3"},
		{"-msglen", "a", "-msgsize", "1"}, {"-window_size", "0"}, {"-thread_level", "lots"},
		{"-buffers", "malloc"}, {"-buffers", "huge"}, {"-precision", "2%"}, {"-iter_policy", "precision", "-precision", "0"},
		{"-iter_policy", "precision", "-precision", "150%"}, {"-iter_policy", "precision", "-precision", "x"}} {
		if _, err := parseIMBSuite(imb.Suite, bad); err == nil || cli.Code(err) != cli.ExitUsage {
			t.Errorf("%v: error %v, want a usage error", bad, err)
		}
	}
}

// TestParseSetup: gomb imb sets MPI up as IMB-MPI1 does unless told
// otherwise: MPI_Init_thread(MPI_THREAD_SINGLE), IMB's buffers; -buffers
// page and -iter_policy precision are opt-in.
func TestParseSetup(t *testing.T) {
	for _, c := range []struct {
		args      []string
		thread    kernel.ThreadLevel
		buffers   kernel.Buffers
		policy    imb.Policy
		precision float64
	}{
		{nil, kernel.ThreadSingle, kernel.BuffersIMB, imb.PolicyDynamic, imb.DefaultPrecision},
		{[]string{"-thread_level", "funneled", "-buffers", "page"}, kernel.ThreadFunneled, kernel.BuffersPage, imb.PolicyDynamic, imb.DefaultPrecision},
		{[]string{"-thread_level", "nompinit", "-buffers", "IMB"}, kernel.NoThreadInit, kernel.BuffersIMB, imb.PolicyDynamic, imb.DefaultPrecision},
		{[]string{"-iter_policy", "precision"}, kernel.ThreadSingle, kernel.BuffersIMB, imb.PolicyPrecision, 0.02},
		{[]string{"-iter_policy", "precision", "-precision", "0.5%"}, kernel.ThreadSingle, kernel.BuffersIMB, imb.PolicyPrecision, 0.005},
		{[]string{"-precision", "0.1", "-iter_policy", "precision"}, kernel.ThreadSingle, kernel.BuffersIMB, imb.PolicyPrecision, 0.1},
	} {
		cfg, err := parseIMBSuite(imb.Suite, c.args)
		if err != nil {
			t.Errorf("%v: %v", c.args, err)
			continue
		}
		if cfg.Thread != c.thread || cfg.Options.Buffers != c.buffers || cfg.Options.Policy != c.policy ||
			math.Abs(cfg.Options.Precision-c.precision) > 1e-12 {
			t.Errorf("%v: thread %v buffers %v policy %v precision %g", c.args, cfg.Thread, cfg.Options.Buffers,
				cfg.Options.Policy, cfg.Options.Precision)
		}
	}
}

// TestBuiltWithoutCgo: the analysis build has no MPI and says so.
func TestBuiltWithoutCgo(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "gomb-nocgo")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Env = append(cmd.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("CGO_ENABLED=0 build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "imb", "PingPong").CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != cli.ExitFailure || !strings.Contains(string(out), "built without MPI") {
		t.Errorf("nocgo imb: %v\n%s", err, out)
	}
	out, _ = exec.Command(bin, "version").CombinedOutput()
	if !strings.Contains(string(out), "built without cgo") {
		t.Errorf("nocgo version: %s", out)
	}
	// The analysis side works: import, and the archive through pure-Go SQLite.
	db := filepath.Join(t.TempDir(), "a.db")
	log := filepath.Join("..", "..", "importer", "testdata", "imb_np2_p2p_coll.txt")
	for _, args := range [][]string{
		{"import", log},
		{"archive", "-archive", db, "add", "-system", "s", log},
		{"archive", "-archive", db, "history", "-b", "PingPong", "-bytes", "1024"},
		{"archive", "-archive", db, "check"},
	} {
		if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
			t.Errorf("nocgo %v: %v\n%s", args, err, out)
		}
	}
	// ... and a PostgreSQL archive, through pure-Go pgx
	if testing.Short() {
		return
	}
	s := pgtest.Shared(t)
	pg := s.URL("postgres", pgtest.Superuser, "schema="+s.NewSchema("nocgo"))
	for _, args := range [][]string{
		{"archive", "add", "-system", "s", log},
		{"archive", "history", "-b", "PingPong", "-bytes", "1024"},
		{"archive", "check"},
	} {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "GOMB_ARCHIVE="+pg)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("nocgo, PostgreSQL: %v: %v\n%s", args, err, out)
		}
	}
}

// TestParseOSU: OSU's attached optional arguments (-z25,75, -clog:DIR),
// several tests or a suite, and what is refused before MPI starts.
func TestParseOSU(t *testing.T) {
	cfg, err := parseOSU([]string{"allreduce", "-z25,75", "-clog:/tmp/v", "-m", "1:64"})
	if err != nil || cfg.spec == nil || cfg.spec.Name != "allreduce" || !cfg.opt.Validate || cfg.opt.ValidationLog != "/tmp/v" ||
		len(cfg.opt.PercentileList) != 2 {
		t.Fatalf("parsed %+v, %v", cfg.opt, err)
	}
	// a fractional percentile: the flag and the reason, no "boolean"
	if _, err := parseOSU([]string{"latency", "-z50,95,99.9"}); err == nil || strings.Contains(err.Error(), "boolean") ||
		!strings.HasPrefix(err.Error(), `-z "50,95,99.9": want whole percentiles`) || cli.Code(err) != cli.ExitUsage {
		t.Errorf("-z50,95,99.9: %v", err)
	}
	if cfg, err := parseOSU([]string{"latency", "-clog"}); err != nil || cfg.opt.ValidationLog != "validation_output" {
		t.Errorf("-clog: %q, %v", cfg.opt.ValidationLog, err)
	}
	if cfg, err := parseOSU([]string{"latency", "-c"}); err != nil || !cfg.opt.Validate || cfg.opt.ValidationLog != "" {
		t.Errorf("-c: %+v, %v", cfg.opt, err)
	}
	cfg, err = parseOSU([]string{"latency", "bw", "collective", "-m", "8"})
	if err != nil || cfg.spec != nil || len(cfg.specs) < 30 || cfg.specs[0].Name != "latency" || cfg.specs[1].Name != "bw" {
		t.Fatalf("several: %d specs, %v", len(cfg.specs), err)
	}
	if cfg, err := parseOSU([]string{"latency", "-d", "cuda", "D", "H"}); err != nil || cfg.spec == nil || cfg.opt.Place != [2]byte{'D', 'H'} {
		t.Errorf("placement: %+v, %v", cfg.opt.Place, err)
	}
	for _, bad := range [][]string{{"-m", "8"}, {}, {"latency", "-cfoo"}, {"latency", "bw", "-d", "cuda"}, {"latency", "latancy"},
		{"pt2pt", "-G", "pdf"}, {"latency", "-D", "vect:1"}, {"neighbor_alltoall", "-N", "torus"}, {"init", "-I"}, {"latency_mt", "-I"}} {
		if _, err := parseOSU(bad); err == nil || cli.Code(err) != cli.ExitUsage {
			t.Errorf("%v: error %v, want a usage error", bad, err)
		}
	}
}
