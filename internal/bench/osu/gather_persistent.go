package osu

func init() {
	// OSU 7.3's osu_gather_persistent: osu_gather with MPI_Gather_init
	registerPersistent("gather", "MPI_Gather_init")
}
