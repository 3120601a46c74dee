package analysis

import (
	"fmt"

	"github.com/gomb-hpc/gomb/internal/stats"
)

// bimodal: a rank's repetitions fall into two separate groups.
func bimodal(s *series, th Thresholds) []Finding {
	var hit []int64
	var ex stats.Modes
	exRank := -1
	for _, r := range s.rows {
		for _, x := range r.res {
			found := false
			for i, smp := range x.SamplesUS {
				if len(smp) < th.BimodalMinSamples {
					continue
				}
				if m, ok := stats.Bimodal(smp, th.BimodalMinShare, th.BimodalSeparation); ok && m.HiCentre-m.LowCentre >= th.BimodalMinGapUS {
					if !found {
						hit = append(hit, r.bytes)
						found = true
					}
					if exRank < 0 || m.HiCentre/m.LowCentre > ex.HiCentre/ex.LowCentre {
						ex, exRank = m, x.Ranks[i]
					}
				}
			}
			if found {
				break
			}
		}
	}
	if len(hit) == 0 {
		return nil
	}
	sev := Info
	cause := "a periodic disturbance (timer interrupts, a daemon, frequency changes) or two paths (a rank migrating between cores or sockets, messages over two rails, a progress thread sharing the core); pin ranks and see which repetitions are slow (samples_us in the records)"
	switch {
	case s.traits().Rooted:
		// a rank of a rooted collective alternates between finding its
		// data there and waiting for it (Open MPI's Bcast over TCP: half
		// the repetitions at one message's time, half at two)
		cause = "expected in a rooted collective: a rank either finds its part already sent or waits for it, repetition by repetition; read t_max over the ranks"
	case float64(len(hit)) >= th.BimodalWarnShare*float64(len(s.rows)):
		sev = Warning
	}
	return []Finding{{Kind: KindBimodal, Severity: sev, Series: s.Series, Sizes: hit,
		Summary: fmt.Sprintf("%s: repetitions fall into two groups at %s", name(s.Series), sizes(hit)),
		Numbers: []string{fmt.Sprintf("clearest on rank %d: %.0f%% near %s, %.0f%% near %s", exRank, 100*ex.LowShare,
			us(ex.LowCentre), 100*(1-ex.LowShare), us(ex.HiCentre))},
		Cause: cause}}
}
