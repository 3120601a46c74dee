package osu

func init() {
	// OSU 7.3's osu_reduce_persistent: osu_reduce with MPI_Reduce_init
	registerPersistent("reduce", "MPI_Reduce_init")
}
