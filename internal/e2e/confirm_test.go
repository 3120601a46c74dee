package e2e

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/result"
)

// scaleRecords writes the records of in with PingPong's times multiplied
// by f (bandwidth divided by it): a baseline that the same machine beats
// (f > 1) or cannot reach (f < 1).
func scaleRecords(t *testing.T, in, out string, f float64) {
	t.Helper()
	src, err := os.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	sc := bufio.NewScanner(src)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var r map[string]any
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		if r["type"] == "result" && r["benchmark"] == "PingPong" {
			for _, k := range []string{"t_min_us", "t_max_us", "t_avg_us"} {
				r[k] = r[k].(float64) * f
			}
			if bw, ok := r["mbytes_per_sec"].(float64); ok {
				r["mbytes_per_sec"] = bw / f
			}
			for _, k := range []string{"rank_mean_us"} {
				if vs, ok := r[k].([]any); ok {
					for i := range vs {
						vs[i] = vs[i].(float64) * f
					}
				}
			}
			if ss, ok := r["samples_us"].([]any); ok {
				for _, s := range ss {
					vs, _ := s.([]any)
					for i := range vs {
						vs[i] = vs[i].(float64) * f
					}
				}
			}
		}
		b, _ := json.Marshal(r)
		dst.Write(append(b, '\n'))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

// TestConfirm: gomb imb -baseline checks each benchmark as soon as it has
// run; a benchmark that trips the baseline runs -confirm more times in the
// same job, every run kept in the records (repeat 1, 2) and marked in the
// text, the verdict taken over the median of its runs, and the job exits
// as gomb check does (4); a baseline the run beats re-runs nothing and
// exits 0; the text output reads back with its repeats.
func TestConfirm(t *testing.T) {
	args := []string{"-msglog", "0:3", "-iter", "100", "-iter_policy", "off"}
	for _, m := range mpis {
		t.Run(m.name, func(t *testing.T) {
			dir := t.TempDir()
			base := filepath.Join(dir, "base.jsonl")
			j := launch(t, m, 2, time.Minute, nil, append(args, "-json", base, "PingPong", "Barrier")...)
			if j.code != 0 {
				t.Fatalf("baseline run: exit %d %s", j.code, tail(j.stderr))
			}
			fast, slow := filepath.Join(dir, "fast.jsonl"), filepath.Join(dir, "slow.jsonl")
			scaleRecords(t, base, fast, 0.05)
			// far enough that no stall trips it: oversubscribed on a loaded machine,
			// MPICH's busy-polling ranks have taken 3,000 times an idle round trip
			scaleRecords(t, base, slow, 1e6)

			out := filepath.Join(dir, "tripped.jsonl")
			j = launch(t, m, 2, 2*time.Minute, nil, append(args, "-baseline", fast, "-confirm", "2", "-json", out, "PingPong", "Barrier")...)
			checkNoCrash(t, j)
			if j.code != exitRegression || !strings.Contains(j.stderr, "gomb imb: -baseline: ") {
				t.Fatalf("tripped: exit %d, want %d\n%s", j.code, exitRegression, tail(j.stderr))
			}
			for _, want := range []string{"# confirm: PingPong tripped the baseline (0 B +", "repeat 1 of 2", "repeat 2 of 2",
				"# gomb check against -baseline", "FAIL: ", "PingPong (np 2) at 0 B, 1 B, 2 B, 4 B, 8 B"} {
				if !strings.Contains(j.stdout, want) {
					t.Errorf("output lacks %q:\n%s", want, j.stdout)
				}
			}
			repeats := map[int]int{}
			for _, r := range readRecords(t, out).results {
				if r.Benchmark == "PingPong" {
					repeats[r.Repeat]++
				}
			}
			if repeats[0] != 5 || repeats[1] != 5 || repeats[2] != 5 {
				t.Errorf("PingPong rows by repeat %v, want 5 each of 0, 1, 2", repeats)
			}
			// the text reads back with the repeats
			txt := filepath.Join(dir, "tripped.txt")
			if err := os.WriteFile(txt, []byte(j.stdout), 0o644); err != nil {
				t.Fatal(err)
			}
			so, se, code := gombCmd(t, nil, "", "import", txt)
			back := 0 // Barrier may trip too: its baseline is its own first run
			for _, l := range strings.Split(so, "\n") {
				if strings.Contains(l, `"type":"result"`) && strings.Contains(l, `"benchmark":"PingPong"`) && strings.Contains(l, `"repeat":`) {
					back++
				}
			}
			if code != 0 || back != 10 {
				t.Errorf("import of the text: exit %d, %d PingPong rows with a repeat, want 10: %s", code, back, se)
			}

			out = filepath.Join(dir, "fine.jsonl")
			j = launch(t, m, 2, time.Minute, nil, append(args, "-baseline", slow, "-json", out, "PingPong")...)
			if j.code != 0 || strings.Contains(j.stdout, "# confirm:") || !strings.Contains(j.stdout, "PASS: no regression") {
				t.Errorf("a baseline the run beats: exit %d\n%s\n%s", j.code, j.stdout, tail(j.stderr))
			}
			for _, r := range readRecords(t, out).results {
				if r.Repeat != 0 || r.Status != result.StatusOK {
					t.Errorf("row %+v", r)
				}
			}
			checkUsageError(t, launch(t, m, 2, time.Minute, nil, "-baseline", filepath.Join(dir, "nope.jsonl"), "PingPong"), "-baseline: ")
			checkUsageError(t, launch(t, m, 2, time.Minute, nil, "-confirm", "3", "PingPong"), "-confirm and -tol need -baseline")
		})
	}
}
