package ringtext

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/internal/bench/ring"
	"github.com/gomb-hpc/gomb/internal/testutil"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func TestWriterGolden(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	w.Header(ring.DefaultOptions())
	tr := ring.NewTracker(1 << 20)
	for i, d := range [][]float64{{4.188e-3, 4.196e-3}, {0.362e-3, 0.363e-3}, {0.367e-3, 0.368e-3}} {
		s := ring.NewSample(i, 1<<20, d, time.Unix(1700000000, 0))
		tr.Add(s)
		w.Sample(s)
	}
	w.Summary(tr.Summary([]string{"n1", "n2"}), 2)
	testutil.Golden(t, filepath.Join("testdata", "ring.golden"), buf.Bytes(), *update)

	prom := filepath.Join(t.TempDir(), "ring.prom")
	s := ring.NewSample(2, 1<<20, []float64{0.367e-3, 0.368e-3}, time.Unix(1700000000, 0))
	if err := Prom(prom, s, tr.Summary([]string{"n1", "n2"}), 1<<20, []string{"n1", `n"2`}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(prom)
	testutil.Golden(t, filepath.Join("testdata", "ring.prom.golden"), b, *update)
	if !strings.Contains(string(b), `host="n\"2"`) {
		t.Error("label values are not escaped")
	}
	if err := Prom(filepath.Join(t.TempDir(), "no", "dir", "x.prom"), s, tr.Summary(nil), 1, nil); err == nil {
		t.Error("missing directory accepted")
	}
}
