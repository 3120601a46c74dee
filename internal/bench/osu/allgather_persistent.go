package osu

func init() {
	// OSU 7.3's osu_allgather_persistent: osu_allgather with MPI_Allgather_init
	registerPersistent("allgather", "MPI_Allgather_init")
}
