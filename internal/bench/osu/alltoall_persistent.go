package osu

func init() {
	// OSU 7.3's osu_alltoall_persistent: osu_alltoall with MPI_Alltoall_init
	registerPersistent("alltoall", "MPI_Alltoall_init")
}
