package scripts

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDistNotices: the notices make dist ships beside a binary name every
// Go module `go version -m` lists of it, each with its licence text, and
// Go's and uPlot's; a file that is not a Go binary is refused. The binary
// is the analysis build (CGO_ENABLED=0, as dist builds it; scripts/test.sh
// has built it once already, so this links from the cache).
func TestDistNotices(t *testing.T) {
	if testing.Short() {
		t.Skip("builds gomb")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	bin := filepath.Join(t.TempDir(), "gomb-nompi")
	build := exec.CommandContext(ctx, "go", "build", "-o", bin, "../cmd/gomb")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	deps, err := exec.CommandContext(ctx, "go", "version", "-m", bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, "sh", "dist.sh", "-notices", bin)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("dist.sh -notices: %v\n%s", err, stderr.String())
	}
	sections := map[string]string{} // heading -> text
	parts := strings.Split(stdout.String(), strings.Repeat("=", 64)+"\n")
	for i := 1; i+1 < len(parts); i += 2 {
		sections[strings.TrimSpace(parts[i])] = parts[i+1]
	}
	want := []string{"uPlot (embedded in the HTML report)"}
	for _, l := range strings.Split(string(deps), "\n") {
		if f := strings.Fields(l); len(f) >= 3 && f[0] == "dep" {
			want = append(want, f[1]+" "+f[2])
		}
	}
	if len(want) < 10 {
		t.Fatalf("go version -m lists %d modules: %s", len(want)-1, deps)
	}
	for _, h := range want {
		text, ok := sections[h]
		if !ok {
			t.Errorf("no notice for %q", h)
			continue
		}
		if low := strings.ToLower(text); !strings.Contains(low, "copyright") && !strings.Contains(low, "licen") {
			t.Errorf("%s: the notice holds no licence text:\n%.300s", h, text)
		}
	}
	goHead := false
	for h := range sections {
		goHead = goHead || strings.HasPrefix(h, "Go (the runtime and standard library)")
	}
	if !goHead {
		t.Error("no notice for Go's runtime and standard library")
	}

	// A file that is not a Go binary: refused, not a partial list.
	junk := filepath.Join(t.TempDir(), "junk")
	if err := os.WriteFile(junk, []byte("not a binary"), 0o755); err != nil {
		t.Fatal(err)
	}
	bad := exec.CommandContext(ctx, "sh", "dist.sh", "-notices", junk)
	if out, err := bad.CombinedOutput(); err == nil {
		t.Errorf("dist.sh -notices on a non-binary succeeded:\n%.300s", out)
	}
}
