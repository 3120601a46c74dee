package osu

func init() {
	// OSU 7.3's osu_alltoallv_persistent: osu_alltoallv with MPI_Alltoallv_init
	registerPersistent("alltoallv", "MPI_Alltoallv_init")
}
