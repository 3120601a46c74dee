package e2e

// The PostgreSQL archive under real jobs: a measuring job whose server
// stops mid-run, and 32 Slurm array tasks on emulated hosts writing into
// one archive while archive add imports logs beside them. The server is a
// throwaway cluster of Debian's (internal/pgtest), reached over its Unix
// socket, which the emulated hosts (network namespaces on this machine's
// file system) share.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/internal/pgtest"
	"github.com/gomb-hpc/gomb/internal/testbed"
)

// TestMeasureIntoPostgresServerStops: the server stopped as by a crash
// (pg_ctl stop -m immediate) while a job with -archive measures: the job
// ends non-zero with one line about the archive, in bounded time, its
// -json records whole; after a restart the archive holds nothing of it.
func TestMeasureIntoPostgresServerStops(t *testing.T) {
	needLaunch(t)
	pgtest.Require(t)
	s, err := pgtest.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Remove()
	url := s.URL("postgres", pgtest.Superuser, "")
	out := filepath.Join(t.TempDir(), "r.jsonl")
	m := mpis[0]
	cmd := m.command(t, context.Background(), 2, filepath.Join(binDir, m.bin), "ring", "--count", "12", "--interval", "0.25",
		"--msg-size", "4k", "-archive="+url, "-system", "pgstop", "-json", out)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitLines(t, cmd, out, 3, &se) // the run record and two samples: mid-run
	stopped := time.Now()
	if err := s.StopImmediate(); err != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		t.Fatal(err)
	}
	_, code := waitExit(t, cmd, 2*time.Minute)
	took := time.Since(stopped)
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(se.String()), "\n") {
		if strings.Contains(l, "archive") {
			lines = append(lines, l)
		}
	}
	t.Logf("exit %d %v after the stop: %q", code, took.Round(time.Millisecond), lines)
	if code != 1 || len(lines) != 1 || !strings.HasPrefix(lines[0], "gomb ring: -archive: archive postgres://") {
		t.Errorf("exit %d, archive lines %q: want 1 and one line\n%s", code, lines, tail(se.String()))
	}
	checkNoCrash(t, job{stdout: so.String(), stderr: se.String(), code: code})
	st := readRecords(t, out)
	if st.run == nil || st.end == nil || st.end.Status != "complete" || len(st.results) < 12 || st.end.Results != len(st.results) ||
		len(st.bad) > 0 {
		t.Errorf("-json: run %v, %d results, end %+v, bad %v", st.run != nil, len(st.results), st.end, st.bad)
	}
	if err := s.Restart(); err != nil {
		t.Fatal(err)
	}
	env := []string{"GOMB_ARCHIVE=" + url}
	so2, se2, code := gombCmd(t, env, "", "archive", "list", "system=pgstop")
	if code != 0 || !strings.Contains("\n"+se2, "\n0 runs\n") {
		t.Errorf("after the restart: exit %d, want no run of the job\n%s%s", code, so2, se2)
	}
	if _, se2, code := gombCmd(t, env, "", "archive", "check"); code != 0 {
		t.Errorf("archive check: exit %d\n%s", code, se2)
	}
}

// slurmPostgres: 32 array tasks on the two emulated hosts, each a
// one-rank job with -archive into one PostgreSQL archive (the URL and its
// password in GOMB_ARCHIVE), while two archive add processes import the
// same logs into it: every run is stored once, archive list counts them
// exactly, archive export is the union of the writers' -json and the
// logs, and the password is in no record, log, message or command line.
func slurmPostgres(t *testing.T, s *testbed.Slurm, fabric []string) {
	pgtest.Require(t)
	srv, err := pgtest.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Remove()
	const password, tasks = "Sl-urm-s3cret-7", 32
	if err := srv.Exec("postgres", `CREATE ROLE t_jobs LOGIN PASSWORD '`+password+`'`); err != nil {
		t.Fatal(err)
	}
	if err := srv.Exec("postgres", `CREATE SCHEMA perf AUTHORIZATION t_jobs`); err != nil {
		t.Fatal(err)
	}
	withPW := strings.Replace(srv.URL("postgres", "t_jobs", "schema=perf"), "t_jobs@", "t_jobs:"+password+"@", 1)
	dir := t.TempDir()
	os.Chmod(dir, 0o755)
	script := filepath.Join(dir, "writer.sbatch")
	os.WriteFile(script, []byte(`#!/bin/bash
set -u
exec srun --mpi=pmix -n 1 "$GOMB" imb -npmin 1 -msglog 0:1 -iter 20 -archive -system slurmpg \
	-label task=$SLURM_ARRAY_TASK_ID -json "$OUT/w$SLURM_ARRAY_TASK_ID.jsonl" Allreduce
`), 0o755)
	env := append([]string{"GOMB=" + filepath.Join(binDir, "gomb"), "OUT=" + dir, "GOMB_ARCHIVE=" + withPW}, fabric...)
	// the archive made before the jobs start, as a site's is
	if _, se, code := gombCmd(t, []string{"GOMB_ARCHIVE=" + withPW}, "", "archive", "list"); code != 0 {
		t.Fatalf("archive list: exit %d\n%s", code, se)
	}
	cmd := s.Command("sbatch", "--wait", "--parsable", "-N", "1", "-n", "1", fmt.Sprintf("--array=0-%d", tasks-1),
		"-o", filepath.Join(dir, "%A_%a.out"), script)
	cmd.Env = append(cmd.Env, env...)
	var so, se bytes.Buffer
	cmd.Stdout, cmd.Stderr = &so, &se
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// archive add of logs beside the jobs, twice at once: the same runs
	logs := []string{testdata("imb_np2_p2p_coll.txt"), testdata("osu5_latency.txt"), testdata("imb2018_np3_slurm.txt"),
		testdata("imb-fabric-comparison-blog.txt")}
	adds := make(chan string, 2)
	for range 2 {
		go func() {
			c := exec.Command(filepath.Join(binDir, "gomb"), append([]string{"archive", "add", "-system", "logs"}, logs...)...)
			c.Env = append(os.Environ(), "GOMB_ARCHIVE="+srv.URL("postgres", "t_jobs", "schema=perf"), "PGPASSWORD="+password)
			out, err := c.CombinedOutput()
			adds <- fmt.Sprintf("%v: %s", err, out)
		}()
	}
	// no gomb's command line shows the password while the jobs run
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	seen := 0
wait:
	for {
		select {
		case <-done:
			break wait
		case <-time.After(5 * time.Minute):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
			t.Fatal("the array did not end in 5 minutes")
		case <-time.After(100 * time.Millisecond):
			for _, p := range ourProcesses("gomb") {
				if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", p)); err == nil {
					seen++
					if bytes.Contains(b, []byte(password)) {
						t.Errorf("the password in a gomb's command line: %q", b)
					}
				}
			}
		}
	}
	took := time.Since(start)
	for range 2 {
		if r := <-adds; !strings.HasPrefix(r, "<nil>") {
			t.Errorf("archive add: %s", r)
		}
	}
	outs, _ := filepath.Glob(filepath.Join(dir, "*.out"))
	var text bytes.Buffer
	for _, o := range outs {
		b, _ := os.ReadFile(o)
		text.Write(b)
	}
	if cmd.ProcessState.ExitCode() != 0 {
		t.Fatalf("sbatch: exit %d\n%s%s\n%s", cmd.ProcessState.ExitCode(), so.String(), se.String(), tail(text.String()))
	}
	if n := strings.Count(text.String(), "gomb: run added to postgres://t_jobs@/postgres?"); n != tasks {
		t.Errorf("%d tasks said they added their run, want %d\n%s", n, tasks, tail(text.String()))
	}
	// the union of the writers' records and the logs'
	var want []string
	for task := range tasks {
		b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("w%d.jsonl", task)))
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, recordLines(t, b)...)
		if bytes.Contains(b, []byte(password)) {
			t.Errorf("task %d's records hold the password", task)
		}
	}
	imported, se2, code := gombCmd(t, nil, "", append([]string{"import", "-system", "logs"}, logs...)...)
	if code != 0 {
		t.Fatalf("import: %s", se2)
	}
	nlogs := strings.Count(imported, `"type":"run"`)
	want = append(want, recordLines(t, []byte(imported))...)
	db := []string{"GOMB_ARCHIVE=" + withPW}
	list, se2, code := gombCmd(t, db, "", "archive", "list")
	if code != 0 || !strings.Contains("\n"+se2, fmt.Sprintf("\n%d runs\n", tasks+nlogs)) {
		t.Errorf("archive list: exit %d, want %d runs\n%s", code, tasks+nlogs, tail(list+se2))
	}
	export, se2, code := gombCmd(t, db, "", "archive", "export")
	if code != 0 {
		t.Fatalf("archive export: %s", se2)
	}
	got := recordLines(t, []byte(export))
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("archive export (%d records) is not the union of the writers' -json and the logs (%d)\n%s",
			len(got), len(want), firstDifference(got, want))
	}
	if _, se2, code := gombCmd(t, db, "", "archive", "check"); code != 0 {
		t.Errorf("archive check: exit %d %s", code, se2)
	}
	for what, b := range map[string]string{"job output": text.String(), "export": export, "list": list, "sbatch": se.String()} {
		if strings.Contains(b, password) {
			t.Errorf("the password in the %s", what)
		}
	}
	t.Logf("%d array tasks and 2 archive adds of %d log runs in %v: %d runs stored; %d gomb command lines read",
		tasks, nlogs, took.Round(time.Millisecond), tasks+nlogs, seen)
}

// recordLines are a record stream's lines, each as its JSON normalised
// (keys in order): the same record encoded twice is the same line.
func recordLines(t *testing.T, b []byte) []string {
	t.Helper()
	var out []string
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var v any
		if err := json.Unmarshal([]byte(l), &v); err != nil {
			t.Fatalf("%v: %.200s", err, l)
		}
		n, _ := json.Marshal(v)
		out = append(out, string(n))
	}
	return out
}

// firstDifference shows where two sorted lists part.
func firstDifference(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("%.400s\n  vs\n%.400s", a[i], b[i])
		}
	}
	return fmt.Sprintf("%d vs %d lines", len(a), len(b))
}
