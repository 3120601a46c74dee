package imb

// SuiteInfo describes one IMB suite for its subcommand: IMB's program and
// banner part, the line in gomb -help, the -help paragraph that follows the
// common opening, the examples, and where its flags differ from IMB-MPI1's.
type SuiteInfo struct {
	Name     string // the suite and its subcommand: imb, imb-ext, ...
	Program  string // IMB's program: IMB-MPI1, IMB-EXT, ...
	Part     string // IMB's banner: "MPI-1" in "IMB-MPI1 ..., MPI-1 part"
	Summary  string // the subcommand's line in gomb -help
	Intro    string // -help's paragraph after the common opening ("": none)
	Examples []string
	// Aggregate: the suite takes -aggregate_mode; NoDataType: it has no
	// -data_type or -red_data_type; Dir: it takes -dir (IMB-IO's files).
	Aggregate, NoDataType, Dir bool
	// Idle are flags the suite takes, as its IMB program does, without
	// effect on its benchmarks.
	Idle []string
	// NPMin is -npmin's default where it is not IMB-MPI1's 2.
	NPMin int
}

// suiteInfos are the suites, in Suites' order.
var suiteInfos = []SuiteInfo{
	{
		Name: Suite, Program: "IMB-MPI1", Part: "MPI-1",
		Summary: "IMB-MPI1 benchmarks with IMB's flags and tables (run under mpirun/mpiexec/srun)",
		Examples: []string{
			"mpirun -np 2 gomb imb PingPong",
			"mpirun -np 4 gomb imb -npmin 4 -json allreduce.jsonl Allreduce Bcast",
			"mpirun -np 2 gomb imb -msglen sizes.txt -iter 100 -iter_policy off Sendrecv",
			"mpirun -np 2 gomb imb -archive -system hpc4 -config ucx PingPong",
			"mpiexec -n 8 gomb imb -multi 1 PingPong           # 4 pairs at once",
			"srun -n 64 gomb imb -check -o check.jsonl Alltoall",
		},
	},
	{
		Name: SuiteNBC, Program: "IMB-NBC", Part: "MPI-NBC",
		Summary: "IMB-NBC benchmarks: non-blocking collectives and their overlap with computation",
		Intro: `Each benchmark starts its non-blocking collective, runs IMB's CPU exploit
for as long as the collective alone took (t_pure), then waits: t_ovrl is
the whole, t_CPU the exploit, overlap[%] how much of the communication
hid behind it. The _pure benchmarks time the collective alone.`,
		Examples: []string{
			"mpirun -np 2 gomb imb-nbc Ibcast",
			"mpirun -np 4 gomb imb-nbc -npmin 4 -json nbc.jsonl Iallreduce Iallreduce_pure",
			"mpirun -np 2 gomb imb-nbc -msglog 3:16 -iter 200 -check Ialltoall",
		},
	},
	{
		Name: SuiteMPI4, Program: "IMB-MPI4", Part: "MPI-4",
		Summary: "IMB-MPI4 benchmarks: MPI-4 persistent collectives and their overlap with computation",
		Intro: `Each benchmark makes its collective a persistent request once
(MPI_<op>_init), then starts it (MPI_Start), runs IMB's CPU exploit for as
long as the collective alone took (t_pure) and waits: t_ovrl is the whole,
t_CPU the exploit, overlap[%] how much of the communication hid behind it.
The _pure benchmarks time the collective alone.`,
		Examples: []string{
			"mpiexec -n 2 gomb-mpich imb-mpi4 Allreduce_persist",
			"mpirun -np 4 gomb imb-mpi4 -npmin 4 -json p.jsonl Bcast_persist Bcast_persist_pure",
		},
	},
	{
		Name: SuiteEXT, Program: "IMB-EXT", Part: "MPI-2",
		Summary: "IMB-EXT benchmarks: one-sided put, get, accumulate with fences, aggregate and not",
		Intro: `One-sided communication (MPI-2) synchronised with MPI_Win_fence, over a
window made for each size: Unidir and Bidir put and get between two
ranks, Accumulate from every rank into rank 0, and Window (create, fence,
put, fence, free). All but Window run twice, in IMB's aggregate mode (one
fence after all repetitions' operations) and non-aggregate mode (a fence
each), a table each.`,
		Examples: []string{
			"mpirun -np 2 gomb imb-ext Unidir_Put Bidir_Get",
			"mpirun -np 4 gomb imb-ext -npmin 4 -json ext.jsonl Accumulate",
			"mpirun -np 2 gomb imb-ext -iter 1000,40,200 -check",
		},
		Aggregate: true,
	},
	{
		Name: SuiteRMA, Program: "IMB-RMA", Part: "MPI-RMA",
		Summary: "IMB-RMA benchmarks: passive-target one-sided put, get and atomics with lock and flush",
		Intro: `One-sided communication (MPI-3) with passive-target synchronisation over a
window made for each size: the origin locks the target (MPI_Win_lock
shared, or MPI_Win_lock_all), times its operations and their completion
(MPI_Win_flush, MPI_Win_flush_local), unlocks. The single-target
benchmarks run twice, in IMB-RMA's order: non-aggregate (a flush after
every operation) then aggregate (one flush after all), a table each.
Truly_passive_put asks whether a put progresses while the target computes:
t_pure with the target waiting in MPI_Barrier, t_ovrl with it computing
first (t_ovrl near t_pure: truly passive).`,
		Examples: []string{
			"mpirun -np 2 gomb imb-rma Unidir_put Unidir_get",
			"mpirun -np 4 gomb imb-rma -npmin 4 -json rma.jsonl One_put_all All_put_all",
			"mpirun -np 2 gomb imb-rma -aggregate_mode non_aggregate -check Bidir_put",
			"mpiexec -n 2 gomb-mpich imb-rma Truly_passive_put",
		},
		Aggregate: true, NoDataType: true,
	},
	{
		Name: SuiteIO, Program: "IMB-IO", Part: "MPI-IO",
		Summary: "IMB-IO benchmarks: MPI-IO writes and reads, blocking and overlapped, and Open_Close",
		Intro: `MPI-IO on a file in the directory -dir names (by default a new one under
the working directory, removed after the run): S_ one process writes or
reads a file of its own, P_ every process its share of each size, C_ the
same with collective calls; Indv through individual file pointers, Expl at
explicit offsets, Shared through the shared pointer, Priv a file per
process. Blocking writes run in IMB's two modes: aggregate (one
MPI_File_sync, MPI_Barrier, MPI_File_sync after all repetitions) and
non-aggregate (after each). The I variants time the blocking loop
(t_pure), then the non-blocking one with IMB's CPU exploit, 10 ms a
repetition, between start and completion (t_ovrl). Open_Close times
MPI_File_open, a one-byte write and MPI_File_close.`,
		Examples: []string{
			"mpirun -np 2 gomb imb-io P_Write_Indv P_Read_Indv",
			"mpirun -np 4 gomb imb-io -dir /scratch/$USER -json io.jsonl C_Write_Expl C_Read_Expl",
			"mpirun -np 2 gomb imb-io -msglog 20 -aggregate_mode non_aggregate -check P_Write_Shared",
			"mpirun -np 1 gomb imb-io S_Write_Indv S_IWrite_Indv",
		},
		Aggregate: true, NoDataType: true, Dir: true, NPMin: 1,
		Idle: []string{"off_cache", "root_shift", "sync", "imb_barrier", "warm_up", "window_size"},
	},
}

// Info is the suite's description (IMB-MPI1's for a name it does not know).
func Info(suite string) SuiteInfo {
	for _, s := range suiteInfos {
		if s.Name == suite {
			return s
		}
	}
	return suiteInfos[0]
}
