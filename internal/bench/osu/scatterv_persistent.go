package osu

func init() {
	// OSU 7.3's osu_scatterv_persistent: osu_scatterv with MPI_Scatterv_init
	registerPersistent("scatterv", "MPI_Scatterv_init")
}
