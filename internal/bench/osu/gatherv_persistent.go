package osu

func init() {
	// OSU 7.3's osu_gatherv_persistent: osu_gatherv with MPI_Gatherv_init
	registerPersistent("gatherv", "MPI_Gatherv_init")
}
