package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestReFrameTemplate: the ReFrame class compiles (ReFrame itself is not
// installed here) and its figure extraction (campaigns/reframe/
// gomb_records.py) reads real records: a 2-rank IMB run with each MPI,
// then Python's unittest against it.
func TestReFrameTemplate(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		if os.Getenv("GOMB_REQUIRE_TESTBED") == "1" {
			t.Fatal("python3 is required (scripts/test.sh installs it)")
		}
		t.Skip("no python3")
	}
	dir, err := filepath.Abs(filepath.Join("..", "..", "campaigns", "reframe"))
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	compile := exec.Command(py, "-c", `import ast, sys
for f in sys.argv[1:]:
    ast.parse(open(f).read(), f)`, "gomb_check.py", "gomb_records.py", "test_gomb_records.py")
	compile.Dir, compile.Env = dir, env
	if out, err := compile.CombinedOutput(); err != nil {
		t.Fatalf("the ReFrame files do not compile: %v\n%s", err, out)
	}
	for _, m := range mpis {
		t.Run(m.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "r.jsonl")
			j := launch(t, m, 2, 3*time.Minute, nil, "-msglog", "3:22", "-iter", "100", "-campaign", "reframe-test",
				"-json", out, "PingPong", "Allreduce")
			if j.code != 0 {
				t.Fatalf("exit %d\n%s", j.code, tail(j.stderr))
			}
			cmd := exec.Command(py, "-m", "unittest", "-v", "test_gomb_records")
			cmd.Dir, cmd.Env = dir, append(env, "GOMB_RECORDS="+out)
			b, err := cmd.CombinedOutput()
			if err != nil || strings.Contains(string(b), "skipped") {
				t.Fatalf("python3 -m unittest: %v\n%s", err, b)
			}
		})
	}
}
