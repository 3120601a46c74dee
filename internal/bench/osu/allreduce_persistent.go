package osu

func init() {
	// OSU 7.3's osu_allreduce_persistent: osu_allreduce with MPI_Allreduce_init
	registerPersistent("allreduce", "MPI_Allreduce_init")
}
