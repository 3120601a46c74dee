package osu

func init() {
	// OSU 7.3's osu_bcast_persistent: osu_bcast with MPI_Bcast_init
	registerPersistent("bcast", "MPI_Bcast_init")
}
