package analysis

import "slices"

// reconcile is explain's last pass over a run's findings: no finding
// says of a step what another contradicts. A series' protocol switch
// (INFO, from its fitted lines) where the cliff rule found the same step
// of the same series a cliff (a WARNING) goes: the WARNING reads the step
// against the bytes and the larger sizes, which the fit cannot.
func reconcile(fs []Finding) []Finding {
	cliff := map[Series][]int64{} // series → the sizes of its cliff WARNINGs
	for _, f := range fs {
		if f.Kind == KindCliff && f.Severity == Warning && f.Series.Benchmark != "" {
			cliff[f.Series] = append(cliff[f.Series], f.Sizes...)
		}
	}
	return slices.DeleteFunc(fs, func(f Finding) bool {
		if f.Kind != KindSwitch || f.Severity != Info || f.Series.Benchmark == "" || len(f.Sizes) == 0 {
			return false
		}
		b := f.Sizes[len(f.Sizes)-1]
		return slices.ContainsFunc(cliff[f.Series], func(x int64) bool { return x == b || x == b/2 || x == 2*b })
	})
}
