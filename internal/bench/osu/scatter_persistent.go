package osu

func init() {
	// OSU 7.3's osu_scatter_persistent: osu_scatter with MPI_Scatter_init
	registerPersistent("scatter", "MPI_Scatter_init")
}
