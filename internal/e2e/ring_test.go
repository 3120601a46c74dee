package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/internal/testutil"
	"github.com/gomb-hpc/gomb/result"
)

var promLine = regexp.MustCompile(`^[a-z_][a-z0-9_]*(\{[a-z]+="[^"]*"(,[a-z]+="[^"]*")*\})? -?[0-9.e+-]+$`)

// checkProm reads an OpenMetrics text file: HELP and TYPE comments, gauge
// samples, "# EOF" at the end.
func checkProm(t *testing.T, path string, ranks int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if lines[len(lines)-1] != "# EOF" {
		t.Errorf("prom file does not end with # EOF")
	}
	rankLines := 0
	for _, l := range lines[:len(lines)-1] {
		switch {
		case strings.HasPrefix(l, "# HELP "), strings.HasPrefix(l, "# TYPE ") && strings.HasSuffix(l, " gauge"):
		case promLine.MatchString(l):
			if strings.HasPrefix(l, "gomb_ring_rank_duration_seconds{") {
				rankLines++
			}
		default:
			t.Errorf("prom line %q", l)
		}
	}
	if rankLines != ranks {
		t.Errorf("%d per-rank lines, want %d", rankLines, ranks)
	}
}

func TestRingCount(t *testing.T) {
	for _, m := range mpis {
		for _, np := range testutil.ShortRanks(2, 4) {
			t.Run(fmt.Sprintf("%s/np%d", m.name, np), func(t *testing.T) {
				dir := t.TempDir()
				out, prom := filepath.Join(dir, "r.jsonl"), filepath.Join(dir, "ring.prom")
				j := launchCmd(t, m, np, 2*time.Minute, nil, "ring", "--count", "5", "--interval", "0.01",
					"--msg-size", "64k", "-json", out, "--prom", prom)
				checkNoCrash(t, j)
				if j.code != 0 {
					t.Fatalf("exit %d: %s", j.code, tail(j.stderr))
				}
				for _, want := range []string{"Ring comm benchmark.\nMessage size:   65536 bytes (~0.065536 MB, ~6.5536e-05 GB).\nInterval:       0.01 seconds.\nGPU mode:       off\nMem copy local: off\n",
					"First sample (cold, not in the summary): Bandwidth (send + recv): min = ", "Summary: 5 samples after the cold one"} {
					if !strings.Contains(j.stdout, want) {
						t.Errorf("output lacks %q:\n%s", want, j.stdout)
					}
				}
				if n := strings.Count(j.stdout, "\nBandwidth (send + recv): min = "); n != 5 {
					t.Errorf("%d sample lines, want 5", n)
				}
				s := readRecords(t, out)
				if len(s.bad) > 0 || len(s.results) != 6 || s.end == nil || s.end.Status != result.EndComplete {
					t.Fatalf("records: %d results, errors %v, end %+v", len(s.results), s.bad, s.end)
				}
				for i, r := range s.results {
					if r.Sample != i || r.Cold != (i == 0) || r.NP != np || len(r.Ranks) != np || r.Bytes != 65536 || !(r.TMaxUS > 0) {
						t.Errorf("sample %d: %+v", i, r)
					}
				}
				var sum map[string]any // records keep the summary as written
				if raw, ok := s.end.Summary.(*json.RawMessage); ok {
					json.Unmarshal(*raw, &sum)
				}
				if sum == nil || sum["samples"] != 5.0 || sum["straggler_rank"].(float64) < 0 || sum["straggler_rank"].(float64) >= float64(np) {
					t.Errorf("summary %v", s.end.Summary)
				}
				checkProm(t, prom, np)
			})
		}
	}
}

// TestRingSignal: SIGINT or SIGTERM stops the ring (within 20 s under any
// load; a couple of seconds on a quiet machine), with the summary printed
// and the records closed.
func TestRingSignal(t *testing.T) {
	needLaunch(t)
	for _, m := range mpis {
		for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
			t.Run(m.name+"/"+sig.String(), func(t *testing.T) {
				out := filepath.Join(t.TempDir(), "r.jsonl")
				cmd := m.command(t, context.Background(), 2, filepath.Join(binDir, m.bin), "ring", "--interval", "0.1", "-json", out)
				cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
				var so bytes.Buffer
				cmd.Stdout = &so
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				waitLines(t, cmd, out, 4, &so)
				cmd.Process.Signal(sig)
				// waitExit's limit is the bound; the time taken is a figure
				took, code := waitExit(t, cmd, 20*time.Second)
				if !strings.Contains(so.String(), "\nSummary: ") || !strings.Contains(so.String(), "Slowest most often: rank ") {
					t.Errorf("no summary (exit %d):\n%s", code, so.String())
				}
				s := readRecords(t, out)
				if len(s.bad) > 0 || s.end == nil || s.end.Status != result.EndInterrupted || s.end.Summary == nil {
					t.Errorf("records: errors %v, end %+v", s.bad, s.end)
				}
				t.Logf("%s %v: exit %d after %v, %d samples", m.name, sig, code, took.Round(time.Millisecond), len(s.results))
			})
		}
	}
}

func TestRingMemCopyLocal(t *testing.T) {
	out := filepath.Join(t.TempDir(), "r.jsonl")
	j := launchCmd(t, mpis[0], 1, time.Minute, nil, "ring", "--mem-copy-local", "--count", "3", "--interval", "0", "-json", out)
	if j.code != 0 || !strings.Contains(j.stdout, "Mem copy local: on") {
		t.Fatalf("exit %d\n%s%s", j.code, j.stdout, j.stderr)
	}
	s := readRecords(t, out)
	if len(s.results) != 4 || s.results[1].NP != 1 {
		t.Errorf("records %+v", s.results)
	}
	sc := bufio.NewScanner(strings.NewReader(j.stdout))
	for sc.Scan() {
		if strings.Contains(sc.Text(), "GB/s") && strings.Contains(sc.Text(), "min =      0.000 GB/s") {
			t.Errorf("zero bandwidth: %s", sc.Text())
		}
	}
}

func TestRingBadInput(t *testing.T) {
	cases := []struct {
		name string
		np   int
		args []string
		want string
	}{
		{"copy local with two", 2, []string{"--mem-copy-local"}, "--mem-copy-local needs exactly one process, 2 started"},
		{"gpu without cuda", 2, []string{"--gpu", "--count", "1"}, "--gpu: rank 0: no CUDA runtime found"},
		{"negative interval", 2, []string{"--interval", "-1"}, "-interval: want seconds from 0 to 86400"},
		{"bad size", 2, []string{"--msg-size", "lots"}, `"lots" is not a message length`},
		{"fractional size", 2, []string{"--msg-size", "1.5"}, "whole number of bytes"},
		{"argument", 2, []string{"extra"}, `unexpected argument "extra"`},
		{"prom dir missing", 2, []string{"--prom", "/nonexistent/dir/ring.prom"}, "--prom:"},
	}
	for _, m := range mpis {
		for _, c := range cases {
			t.Run(m.name+"/"+c.name, func(t *testing.T) {
				t.Parallel() // refusals: short launches that measure nothing
				j := launchCmd(t, m, c.np, time.Minute, nil, "ring", c.args...)
				checkUsageError(t, j, c.want)
			})
		}
	}
}

// TestRingSignalBeforeFirstSample: a ring with a day between samples,
// stopped before its first warm sample, still ends its records with an
// interrupted end record (its summary has no medians: null).
func TestRingSignalBeforeFirstSample(t *testing.T) {
	needLaunch(t)
	for _, m := range mpis {
		t.Run(m.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "r.jsonl")
			cmd := m.command(t, context.Background(), 2, filepath.Join(binDir, m.bin), "ring", "--interval", "86400", "-json", out)
			cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
			var so bytes.Buffer
			cmd.Stdout = &so
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			waitLines(t, cmd, out, 1, &so)
			time.Sleep(time.Second)
			cmd.Process.Signal(syscall.SIGINT)
			waitExit(t, cmd, 30*time.Second)
			s := readRecords(t, out)
			if len(s.bad) > 0 || s.end == nil || s.end.Status != result.EndInterrupted {
				t.Errorf("records: errors %v, end %+v\n%s", s.bad, s.end, so.String())
			}
		})
	}
}
