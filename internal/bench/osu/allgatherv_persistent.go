package osu

func init() {
	// OSU 7.3's osu_allgatherv_persistent: osu_allgatherv with MPI_Allgatherv_init
	registerPersistent("allgatherv", "MPI_Allgatherv_init")
}
