package osu

func init() {
	Register(&Spec{
		Name:     "init",
		Title:    "OSU MPI Init Test",
		Kind:     Startup,
		NoSize:   true,
		MinRanks: 1,
		Buffers:  SameBuffers,
		Summary:  "the wall-clock time of MPI_Init on every rank: min, max, avg (ms)",
	})
}
