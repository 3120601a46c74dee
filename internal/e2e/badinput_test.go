package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestBadInputSweep feeds every subcommand bad input — flags, size lists,
// rank counts, files, environment — and wants each time one clear line
// from gomb, a non-zero exit, no hang (a minute at most, launcher
// included) and no stack trace. The measuring commands run under mpirun
// (Open MPI and MPICH alternate); the others run alone.
func TestBadInputSweep(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	badSizes := write("sizes.txt", "8\n1k\nlots\n")
	notes := write("notes.txt", "milk\neggs\n")
	notDB := write("not.db", strings.Repeat("not sqlite\n", 100))
	missing := filepath.Join(dir, "no", "such", "dir", "x")
	utf16 := write("utf16.log", "\xff\xfe#\x00 \x00I\x00M\x00B\x00\n\x00")
	v9 := write("v9.jsonl", `{"type":"run","schema":"gomb/v9","run_id":"x"}`+"\n"+`{"type":"result","schema":"gomb/v9","run_id":"x"}`+"\n")
	negative := write("negative.jsonl", `{"type":"result","schema":"gomb/v1","run_id":"x","benchmark":"PingPong","np":2,"bytes":8,"t_avg_us":-5,"ranks":[],"rank_mean_us":[],"samples_us":[]}`+"\n")
	negNP := write("negative-np.txt", "#----\n#    Intel(R) MPI Benchmarks 2021.11, MPI-1 part\n#----\n"+
		"# Benchmarking PingPong \n# #processes = -2 \n#----\n       #bytes #repetitions      t[usec]   Mbytes/sec\n            0         1000         0.44         0.00\n")
	missingDB := filepath.Join(dir, "missing.db")
	fifo := filepath.Join(dir, "blocks.fifo") // no writer: opening it would wait for ever
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	_, journalErr := os.Stat(os.DevNull + "-journal") // there before: not ours to judge
	intra := testdata("gomb_records_osu_bw_np2.jsonl")
	inter := testdata("imb2019_np2_twice.txt")
	cases := []struct {
		name string
		np   int // 0: no launcher
		env  []string
		args []string
		code int
		want string // in the one gomb line
	}{
		// measuring commands, under a launcher
		{"imb unknown benchmark", 2, nil, []string{"imb", "PingPang"}, exitUsage, `unknown benchmark "PingPang"`},
		{"imb malformed size list", 2, nil, []string{"imb", "-msglen", badSizes, "PingPong"}, exitUsage, "sizes.txt:3:"},
		{"imb missing size list", 2, nil, []string{"imb", "-msglen", missing, "PingPong"}, exitUsage, "no such file"},
		{"imb bad -iter", 2, nil, []string{"imb", "-iter", "x"}, exitUsage, "-iter"},
		{"imb too few ranks", 1, nil, []string{"imb", "PingPong"}, exitUsage, "PingPong needs at least 2 processes, 1 started"},
		{"imb -npmin above ranks", 2, nil, []string{"imb", "-npmin", "9", "Allreduce"}, exitUsage, "-npmin 9 is larger"},
		{"imb bad -watchdog", 2, nil, []string{"imb", "-watchdog", "soon", "PingPong"}, exitUsage, `want a positive duration (90, 90s, 5m), got "soon"`},
		{"imb bad -deadline", 2, nil, []string{"imb", "-deadline", "-5", "PingPong"}, exitUsage, "want a positive duration"},
		{"imb -json into a missing directory", 2, nil, []string{"imb", "-json", missing, "PingPong"}, exitUsage, "-json:"},
		{"imb -archive not an archive", 2, nil, []string{"imb", "-archive=" + notDB, "PingPong"}, exitUsage, "not an SQLite archive"},
		{"imb-p2p unknown benchmark", 2, nil, []string{"imb-p2p", "PingPang"}, exitUsage, `unknown benchmark "PingPang" ('gomb imb-p2p -list' shows the names)`},
		{"imb-p2p bad -msglog", 2, nil, []string{"imb-p2p", "-msglog", "5:2"}, exitUsage, "want n or k:n with 0 ≤ k ≤ n ≤ 47"},
		{"imb-p2p bad -iter", 2, nil, []string{"imb-p2p", "-iter", "0"}, exitUsage, "want max[,MiB] with positive integers"},
		{"imb-p2p bad -msgsz", 2, nil, []string{"imb-p2p", "-msgsz", "12x"}, exitUsage, `"12x" is not a message length`},
		{"imb-p2p size above an int", 2, nil, []string{"imb-p2p", "-msgsz", "4g"}, exitUsage, "above the 2147483647 bytes"},
		{"imb-p2p bad switch", 2, nil, []string{"imb-p2p", "-msgwr", "maybe"}, exitUsage, "want on or off"},
		{"imb-p2p missing -msglen", 2, nil, []string{"imb-p2p", "-msglen", missing}, exitUsage, "no such file"},
		{"imb-p2p IMB-MPI1 flag", 2, nil, []string{"imb-p2p", "-npmin", "2"}, exitUsage, "flag provided but not defined: -npmin"},
		{"imb-mt unknown benchmark", 2, nil, []string{"imb-mt", "PingPong"}, exitUsage, `unknown benchmark "PingPong" ('gomb imb-mt -list' shows the names)`},
		{"imb-mt bad -count", 2, nil, []string{"imb-mt", "-count", "1,x"}, exitUsage, "want counts ≥ 0 separated by commas"},
		{"imb-mt bad -barrier", 2, nil, []string{"imb-mt", "-barrier", "maybe"}, exitUsage, "want on, off or special"},
		{"imb-mt -check of chars", 2, nil, []string{"imb-mt", "-check", "on", "-datatype", "char"}, exitUsage, "-check: only the int data type is checked"},
		{"imb-mt bad -repeat", 2, nil, []string{"imb-mt", "-repeat", "0"}, exitUsage, `for flag -repeat: want a whole number of iterations from 1 to 2147483647, got "0"`},
		{"imb-mt bad -thread_level", 2, nil, []string{"imb-mt", "-thread_level", "many"}, exitUsage, "unknown thread level"},
		{"osu unknown test", 2, nil, []string{"osu", "latencyy"}, exitUsage, `unknown test "latencyy"`},
		{"osu bad -m", 2, nil, []string{"osu", "latency", "-m", "8:2"}, exitUsage, "-m"},
		{"osu exact ranks", 3, nil, []string{"osu", "latency"}, exitUsage, "latency needs exactly 2 processes"},
		{"osu bad window creation", 2, nil, []string{"osu", "put_latency", "-w", "magic"}, exitUsage, "-w"},
		{"osu GPU without CUDA", 2, nil, []string{"osu", "latency", "-d", "cuda"}, exitUsage, "no CUDA runtime found"},
		{"ring bad message size", 2, nil, []string{"ring", "--msg-size", "big"}, exitUsage, `"big" is not a message length`},
		{"ring negative interval", 2, nil, []string{"ring", "--interval", "-1"}, exitUsage, "-interval: want seconds from 0 to 86400"},
		{"ring memcpy with two ranks", 2, nil, []string{"ring", "--mem-copy-local"}, exitUsage, "--mem-copy-local needs exactly one process"},
		{"ring prom into a missing directory", 2, nil, []string{"ring", "--prom", missing}, exitUsage, "--prom"},
		{"ring bad -watchdog", 2, nil, []string{"ring", "-watchdog", "0"}, exitUsage, "want a positive duration"},
		// records that cannot be written (a full disk): every rank ends, one line
		{"imb -json on a full disk", 2, nil, []string{"imb", "-msglog", "0:4", "-iter", "100", "-json", "/dev/full", "PingPong"}, exitFailure, "-json: write record: write /dev/full: no space left on device"},
		{"osu -json on a full disk", 2, nil, []string{"osu", "latency", "-m", "1:16", "-json", "/dev/full"}, exitFailure, "-json: write record: write /dev/full: no space left on device"},
		{"ring -json on a full disk", 2, nil, []string{"ring", "--count", "2", "--interval", "0.01", "-json", "/dev/full"}, exitFailure, "-json: write record: write /dev/full: no space left on device"},
		{"imb -precision without its policy", 2, nil, []string{"imb", "-precision", "1%", "PingPong"}, exitUsage, "-precision sets the target of -iter_policy precision"},
		{"imb -buffers unknown", 2, nil, []string{"imb", "-buffers", "huge", "PingPong"}, exitUsage, "unknown buffer scheme"},
		{"osu -m 0:0", 2, nil, []string{"osu", "latency", "-m", "0:0"}, exitUsage, "the largest size must be at least 1 byte"},
		{"osu -i 0", 2, nil, []string{"osu", "latency", "-i", "0"}, exitUsage, "iterations of at least 1"},
		{"osu -x -1", 2, nil, []string{"osu", "latency", "-x", "-1"}, exitUsage, "warm-up iterations of at least 0"},
		{"osu latency_mt -t 0", 2, nil, []string{"osu", "latency_mt", "-t", "0"}, exitUsage, `-t "0": want RECV or SEND:RECV threads, each 1 to 127`},
		{"osu latency_mt -t 2:128", 2, nil, []string{"osu", "latency_mt", "-t", "2:128"}, exitUsage, `-t "2:128": want RECV or SEND:RECV threads`},
		{"osu latency_mt -t a:b", 2, nil, []string{"osu", "latency_mt", "-t", "a:b"}, exitUsage, `-t "a:b"`},
		{"osu ialltoall -t x", 2, nil, []string{"osu", "ialltoall", "-t", "x"}, exitUsage, `-t "x": want a number of MPI_Test calls`},
		{"osu latency_mt 3 ranks", 3, nil, []string{"osu", "latency_mt"}, exitUsage, "latency_mt needs exactly 2 processes"},
		{"imb -label with a newline", 2, nil, []string{"imb", "-label", "k=a\nb", "PingPong"}, exitUsage, "control or formatting characters"},
		{"imb -json over the archive", 2, nil, []string{"imb", "-archive=" + filepath.Join(dir, "m.db"), "-json", filepath.Join(dir, "m.db"), "PingPong"}, exitUsage, "that is also -archive"},
		{"imb -json over its -msglen", 2, nil, []string{"imb", "-msglen", badSizes, "-json", badSizes, "PingPong"}, exitUsage, "that is also -msglen"},
		{"ring -json over its --prom", 2, nil, []string{"ring", "-json", notes, "--prom", notes}, exitUsage, "that is also --prom"},
		{"imb -iter past an int", 2, nil, []string{"imb", "-iter", "2147483648", "PingPong"}, exitUsage, "at most 2147483647"},
		{"osu -i past an int", 2, nil, []string{"osu", "latency", "-i", "2147483648"}, exitUsage, "at most 2147483647"},
		{"imb-mt -repeat past an int", 2, nil, []string{"imb-mt", "-repeat", "4294967297", "PingPongMT"}, exitUsage, "from 1 to 2147483647"},
		{"imb-p2p -iter past an int", 2, nil, []string{"imb-p2p", "-iter", "2147483648"}, exitUsage, "at most 2147483647"},
		{"imb-mt -stride without partners", 2, nil, []string{"imb-mt", "-stride", "3", "PingPongMT"}, exitUsage, "PingPongMT: no rank has a partner at -stride 3 with 2 processes"},
		{"imb-mt OMP_NUM_THREADS not a number", 2, []string{"OMP_NUM_THREADS=abc"}, []string{"imb-mt", "-thread_level", "multiple", "PingPongMT"}, exitUsage, `OMP_NUM_THREADS="abc": want 1 to 1024 threads`},
		{"imb-mt OMP_NUM_THREADS too many", 2, []string{"OMP_NUM_THREADS=100000"}, []string{"imb-mt", "-thread_level", "multiple", "PingPongMT"}, exitUsage, `OMP_NUM_THREADS="100000": want 1 to 1024 threads`},
		{"osu -D indx of a FIFO", 2, nil, []string{"osu", "bw", "-D", "indx:" + fifo}, exitUsage, "blocks.fifo: not a regular file"},
		{"osu -D indx of /dev/zero", 2, nil, []string{"osu", "bw", "-D", "indx:/dev/zero"}, exitUsage, "/dev/zero: not a regular file"},
		{"congestion -canary-share out of range", 2, nil, []string{"congestion", "-canary-share", "2"}, exitUsage, "want a share between 0 and 1"},
		{"congestion -canary-share NaN", 2, nil, []string{"congestion", "-canary-share", "NaN"}, exitUsage, `want a share between 0 and 1, got "NaN"`},
		{"congestion -canary-share 0.5x", 2, nil, []string{"congestion", "-canary-share", "0.5x"}, exitUsage, `want a share between 0 and 1, got "0.5x"`},
		{"congestion unknown congestor", 2, nil, []string{"congestion", "-congestors", "incast,foo"}, exitUsage, `no congestor "foo"`},
		{"congestion on 2 nodes", 2, nil, []string{"congestion", "-by-rank"}, exitUsage, "gomb congestion needs at least 4 nodes"},
		{"fleet -resume of no file", 2, nil, []string{"fleet", "-by-rank", "-resume", filepath.Join(dir, "none.jsonl")}, exitUsage, "-resume " + filepath.Join(dir, "none.jsonl")},
		{"fleet -resume of a shopping list", 2, nil, []string{"fleet", "-by-rank", "-resume", notes}, exitUsage, "-resume " + notes + ": "},
		{"imb-io -json among its own files", 2, nil, []string{"imb-io", "-dir", dir, "-json", filepath.Join(dir, "IMB_out"), "S_Write_Indv"}, exitUsage, "-json " + filepath.Join(dir, "IMB_out") + ": IMB-IO writes that file in -dir and removes it after the run"},
		{"imb -baseline empty", 2, nil, []string{"imb", "-baseline", "", "PingPong"}, exitUsage, "-baseline is empty"},
		{"imb -baseline in a missing archive", 2, []string{"GOMB_ARCHIVE=" + missingDB}, []string{"imb", "-baseline", "system=x last=3", "PingPong"}, exitUsage, "no archive at " + missingDB},
		// analysis commands, alone
		{"check -junit and -json one file", 0, nil, []string{"check", "-baseline", intra, "-junit", filepath.Join(dir, "v.out"), "-json", filepath.Join(dir, "v.out"), intra}, exitUsage, "-junit " + filepath.Join(dir, "v.out") + ": that is also -json"},
		{"archive on a device", 0, nil, []string{"archive", "-archive", os.DevNull, "add", intra}, exitUsage, "not a regular file"},
		{"archive add a log of no results", 0, nil, []string{"archive", "-archive", filepath.Join(dir, "neg.db"), "add", negNP}, exitUsage, `#processes "-2" is not a process count`},
		{"compare a selection in a missing archive", 0, []string{"GOMB_ARCHIVE=" + missingDB}, []string{"compare", "system=x", intra}, exitUsage, "no archive at " + missingDB},
		{"import -np -5", 0, nil, []string{"import", "-np", "-5", inter}, exitUsage, "processes of at least 1"},
		{"import -system with an escape", 0, nil, []string{"import", "-system", "a\x1b[2J", inter}, exitUsage, "control or formatting characters"},
		{"import UTF-16", 0, nil, []string{"import", utf16}, exitUsage, "UTF-16 text"},
		{"import over its input", 0, nil, []string{"import", "-o", notes, notes}, exitUsage, "that is an input of this command"},
		{"report over its input", 0, nil, []string{"report", intra, "-o", intra}, exitUsage, "that is an input of this command"},
		{"report -alpha 5", 0, nil, []string{"report", "-alpha", "5", intra}, exitUsage, "false discovery rate between 0 and 1"},
		{"report -alpha NaN", 0, nil, []string{"report", "-alpha", "NaN", intra}, exitUsage, "false discovery rate between 0 and 1"},
		{"compare -alpha NaN", 0, nil, []string{"compare", "-alpha", "NaN", intra, intra}, exitUsage, "false discovery rate between 0 and 1"},
		{"compare -noise abc", 0, nil, []string{"compare", "-noise", "abc", intra, intra}, exitUsage, "the noise of one launch as a fraction or a percentage"},
		{"compare -noise 0", 0, nil, []string{"compare", "-noise", "0", intra, intra}, exitUsage, "the noise of one launch as a fraction or a percentage"},
		{"unknown command", 0, nil, []string{"benchmark"}, exitUsage, `unknown command "benchmark"`},
		{"version with arguments", 0, nil, []string{"version", "now"}, exitUsage, "version"},
		{"import missing file", 0, nil, []string{"import", missing}, exitFailure, "no such file"},
		{"import unknown format", 0, nil, []string{"import", notes}, exitUsage, "not an IMB-MPI1 log"},
		{"import records of a newer schema", 0, nil, []string{"import", v9}, exitUsage, "no results in this gomb file: 2 line(s) refused"},
		{"archive add records of a newer schema", 0, nil, []string{"archive", "-archive", filepath.Join(dir, "a.db"), "add", v9}, exitUsage, "not supported by this gomb"},
		{"import a negative time", 0, nil, []string{"import", negative}, exitUsage, "t_avg_us -5 is not a number >= 0"},
		{"explain a negative time", 0, nil, []string{"explain", negative}, exitUsage, "no results"},
		{"import bad -locality", 0, nil, []string{"import", "-locality", "moon", notes}, exitUsage, "intra-node or inter-node"},
		{"archive unknown command", 0, nil, []string{"archive", "-archive", filepath.Join(dir, "a.db"), "purge"}, exitUsage, `unknown command "purge"`},
		{"archive no such run", 0, nil, []string{"archive", "-archive", filepath.Join(dir, "a.db"), "show", "7"}, exitUsage, "no run 7"},
		{"archive bad selection", 0, nil, []string{"archive", "-archive", filepath.Join(dir, "a.db"), "list", "since=yesterday"}, exitUsage, "since=yesterday"},
		{"archive history without -b", 0, nil, []string{"archive", "-archive", filepath.Join(dir, "a.db"), "history", "-bytes", "8"}, exitUsage, "give -b"},
		{"archive export into a missing directory", 0, nil, []string{"archive", "-archive", filepath.Join(dir, "a.db"), "export", "-o", missing}, exitFailure, "export"},
		{"export over the archive", 0, nil, []string{"archive", "-archive", filepath.Join(dir, "a.db"), "export", "-o", filepath.Join(dir, "a.db")}, exitUsage, "that is an input of this command"},
		{"GOMB_ARCHIVE not an archive", 0, []string{"GOMB_ARCHIVE=" + notDB}, []string{"archive", "list"}, exitUsage, "not an SQLite archive"},
		{"GOMB_ARCHIVE a directory", 0, []string{"GOMB_ARCHIVE=" + dir}, []string{"archive", "list"}, exitUsage, dir + ": is a directory"},
		{"compare one side", 0, nil, []string{"compare", intra}, exitUsage, "give two sides"},
		{"compare intra with inter", 0, nil, []string{"compare", intra, inter}, exitUsage, "A is intra-node, B is inter-node"},
		{"compare selection, no archive", 0, []string{"GOMB_ARCHIVE=" + notDB}, []string{"compare", "system=x", intra}, exitUsage, "not an SQLite archive"},
		{"check bad tolerance", 0, nil, []string{"check", "-baseline", intra, "-tol", "five", intra}, exitUsage, "-tol"},
		{"check no baseline", 0, nil, []string{"check", intra}, exitUsage, "give -baseline"},
		{"explain bad -link", 0, nil, []string{"explain", "-link", "0", intra}, exitUsage, "-link"},
		{"explain a text file", 0, nil, []string{"explain", notes}, exitUsage, "not an IMB-MPI1 log"},
		{"report into a missing directory", 0, nil, []string{"report", intra, "-o", missing + ".html", "-plots", filepath.Join(dir, "p")}, exitFailure, "report:"},
	}
	if len(cases) < 30 {
		t.Fatalf("only %d bad inputs", len(cases))
	}
	// the launched cases side by side (short launches that measure
	// nothing), the others in order (some share an archive); the group
	// ends when all have, before the checks below
	t.Run("cases", func(t *testing.T) {
		for i, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				if c.np > 0 {
					t.Parallel()
				}
				badInputCase(t, mpis[i%2], c.np, c.env, c.args, c.code, c.want)
			})
		}
	})
	// none of them made a file it was not asked to write
	for _, p := range []string{missingDB, os.DevNull + "-journal", filepath.Join(dir, "v.out")} {
		if _, err := os.Stat(p); err == nil && (p != os.DevNull+"-journal" || journalErr != nil) {
			t.Errorf("%s was made", p)
		}
	}
	if out, _, _ := gombCmd(t, nil, "", "archive", "-archive", filepath.Join(dir, "neg.db"), "list"); strings.Contains(out, "imb") {
		t.Errorf("a log of no results was archived:\n%s", out)
	}
	t.Logf("%d bad inputs across %d subcommands", len(cases), 9)
}

// badInputCase runs one case of TestBadInputSweep: under m's launcher with
// np ranks (0: alone) it must end with exit code and one gomb line that
// mentions want.
func badInputCase(t *testing.T, m mpiLib, np int, env, args []string, code int, want string) {
	var j job
	if np > 0 {
		j = launchArgv(t, m, np, time.Minute, env, nil, args...)
	} else {
		start := time.Now()
		j.stdout, j.stderr, j.code = gombCmd(t, env, "", args...)
		j.took = time.Since(start)
	}
	checkNoCrash(t, j)
	var ours []string
	for _, l := range strings.Split(j.stderr, "\n") {
		if strings.HasPrefix(l, "gomb") && !strings.HasPrefix(l, "gomb import: ") && !strings.HasPrefix(l, "gomb archive: ") { // not the summaries
			ours = append(ours, l)
		}
	}
	if j.code != code || len(ours) != 1 || !strings.Contains(ours[0], want) {
		t.Errorf("exit %d (want %d) after %v, gomb lines %q, want one mentioning %q\nstderr:\n%s",
			j.code, code, j.took.Round(time.Millisecond), ours, want, tail(j.stderr))
	}
	// a library's own complaint instead (libgomp's about OMP_NUM_THREADS,
	// printed from every rank as the binary loads) is not gomb's one line
	if strings.Contains(j.stderr, "libgomp:") {
		t.Errorf("libgomp spoke:\n%s", tail(j.stderr))
	}
}
