package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSamplesAuto: at 66 ranks (oversubscribed: the records, not the
// times, are under test) -samples auto, the default, keeps the samples of
// 8 ranks (rank 0, the slowest, the fastest, 5 at random) and every rank's
// summary; -samples all keeps every rank's. explain and compare read both.
func TestSamplesAuto(t *testing.T) {
	m := mpis[0]
	const np = 66
	dir := t.TempDir()
	files := map[string]string{}
	for _, policy := range []string{"auto", "all"} {
		out := filepath.Join(dir, policy+".jsonl")
		files[policy] = out
		j := launch(t, m, np, 5*time.Minute, nil, "-samples", policy, "-npmin", fmt.Sprint(np), "-msglog", "2:3",
			"-iter", "50", "-iter_policy", "off", "-time", "600", "-json", out, "Allreduce")
		if j.code != 0 {
			t.Fatalf("-samples %s: exit %d\n%s", policy, j.code, tail(j.stderr))
		}
		s := readRecords(t, out)
		if len(s.results) == 0 {
			t.Fatalf("-samples %s: no results", policy)
		}
		for _, r := range s.results {
			kept := 0
			for _, ss := range r.SamplesUS {
				if len(ss) > 0 {
					kept++
				}
			}
			switch policy {
			case "auto":
				if r.SamplesKept != 8 || kept != 8 || len(r.RankP50US) != np || len(r.RankMinUS) != np || len(r.RankP99US) != np {
					t.Errorf("auto, %d B: samples_kept %d, %d ranks with samples, %d summaries", r.Bytes, r.SamplesKept, kept, len(r.RankP50US))
				}
			case "all":
				if r.SamplesKept != 0 || kept != np || r.RankP50US != nil {
					t.Errorf("all, %d B: samples_kept %d, %d ranks with samples", r.Bytes, r.SamplesKept, kept)
				}
			}
		}
	}
	if _, se, code := gombCmd(t, nil, "", "explain", files["auto"]); code != 0 {
		t.Errorf("explain of a bounded run: exit %d\n%s", code, se)
	}
	so, se, code := gombCmd(t, nil, "", "compare", files["all"], files["auto"])
	if code != 0 || !strings.Contains(so, "Allreduce") {
		t.Errorf("compare all vs auto: exit %d\n%s%s", code, so, se)
	}
}
