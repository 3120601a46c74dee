package osu

func init() {
	// OSU 7.3's osu_reduce_scatter_persistent: osu_reduce_scatter with MPI_Reduce_scatter_init
	registerPersistent("reduce_scatter", "MPI_Reduce_scatter_init")
}
