package osu

func init() {
	Register(&Spec{
		Name:     "hello",
		Title:    "OSU MPI Hello World Test",
		Kind:     Startup,
		NoSize:   true,
		MinRanks: 1,
		Buffers:  SameBuffers,
		Summary:  "that MPI starts on every rank: rank 0 says how many",
	})
}
