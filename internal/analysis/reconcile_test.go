package analysis

import (
	"strings"
	"testing"
)

// TestOneWarningPerProblem: two emulated hosts over TCP (the labelled
// corpus' real runs), explained against a 10 Gb/s link, draw one WARNING
// per distinct problem. The link shaped to 1 Gbit/s: the bandwidth far
// below the link (PingPong and Sendrecv), Sendrecv's plateau under it,
// and the larger messages' path (Sendrecv's cliff at 128 KiB and
// PingPong's fall from 512 KiB, the shaper's bucket running dry): three,
// where there were five. The link delayed 300 µs: the path, the ranks
// seeing it unevenly (a spread and two groups of repetitions in
// Allreduce: one), the bandwidth the delay leaves: three, where there
// were four. Each folded WARNING is named in the one that stays.
func TestOneWarningPerProblem(t *testing.T) {
	for _, c := range []struct {
		file string
		want []string // the WARNINGs' kinds, in order
		says []string // text some WARNING holds
	}{
		{"testdata/corpus/anomaly-rate1g-internode-openmpi.jsonl.gz", []string{KindEfficiency, KindPlateau, KindCliff},
			[]string{"Sendrecv (np 2) too", "PingPong (np 2): bandwidth falls"}},
		{"testdata/corpus/anomaly-delay300-internode-openmpi.jsonl.gz", []string{KindFabric, KindVariability, KindEfficiency},
			[]string{"also: Allreduce (np 2): repetitions fall into two groups"}},
	} {
		var got []string
		text := ""
		for _, r := range load(t, c.file) {
			for _, f := range Explain(r, ExplainOptions{Link: Link{Gbps: 10, Source: "test"}}) {
				if f.Severity == Warning {
					got = append(got, f.Kind)
					text += f.Summary + " " + strings.Join(f.Numbers, " ") + "\n"
				}
			}
		}
		if strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("%s: WARNINGs %v, want %v:\n%s", c.file, got, c.want, text)
		}
		for _, w := range c.says {
			if !strings.Contains(text, w) {
				t.Errorf("%s: no WARNING says %q:\n%s", c.file, w, text)
			}
		}
	}
}
