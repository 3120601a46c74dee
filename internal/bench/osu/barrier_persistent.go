package osu

func init() {
	// OSU 7.3's osu_barrier_persistent: osu_barrier with MPI_Barrier_init
	registerPersistent("barrier", "MPI_Barrier_init")
}
