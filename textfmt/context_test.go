package textfmt

import (
	"strings"
	"testing"

	"github.com/gomb-hpc/gomb/result"
)

// applied notes the lines, then applies the Context to a new run.
func applied(lines ...string) (*Context, *result.Run) {
	c := &Context{}
	for _, l := range lines {
		c.Note(l)
	}
	run := &result.Run{Source: &result.Source{Meta: map[string]string{}}}
	c.Apply(run)
	return c, run
}

// TestLauncherWord: a launcher is a program named mpirun, mpiexec, srun,
// ... (after its path, before a ".suffix"), never an assignment such as
// Intel MPI's "I_MPI_MPIRUN=mpirun", nor prose that names it.
func TestLauncherWord(t *testing.T) {
	cases := []struct{ line, launch string }{
		{"mpirun -np 2 ./osu_latency", "mpirun -np 2 ./osu_latency"},
		{"$ /opt/openmpi/bin/mpirun.openmpi -n 2 ./IMB-MPI1 PingPong", "/opt/openmpi/bin/mpirun.openmpi -n 2 ./IMB-MPI1 PingPong"},
		{"+ mpiexec.hydra -n 2 IMB-MPI1", "mpiexec.hydra -n 2 IMB-MPI1"},
		{"time srun -n 2 osu_bw", "srun -n 2 osu_bw"},
		{"jsrun -n2 -r1 -a1 ./osu_latency", "jsrun -n2 -r1 -a1 ./osu_latency"},
		{"aprun -n 2 -N 1 ./osu_latency", "aprun -n 2 -N 1 ./osu_latency"},
		{"mpirun_rsh -np 2 cn01 cn02 ./osu_latency", "mpirun_rsh -np 2 cn01 cn02 ./osu_latency"},
		{"[0] MPI startup(): I_MPI_MPIRUN=mpirun", ""},
		{"I_MPI_MPIRUN=mpirun", ""},
		{"I_MPI_HYDRA_BOOTSTRAP=srun", ""},
		{"which-mpirun -np 2", ""},
		{"/usr/bin/mympirun -np 2 ./a.out", ""},
		{"mpirun noticed that process rank 1 with PID 0 on node cn02 exited on signal 9 (Killed).", ""},
		{"mpirun has exited due to process rank 0 with PID 0 on", ""},
		{"srun: error: cn01: task 1: Exited with exit code 1", ""},
		// a script pasted into the log: its loop may run each test with its own -n
		{"        mpiexec -n 2 $benchmark", ""},
		{"srun -n ${NTASKS} ./osu_bw", ""},
	}
	for _, c := range cases {
		_, run := applied(c.line)
		if got := run.Source.Meta["launch"]; got != c.launch {
			t.Errorf("%q: launch %q, want %q", c.line, got, c.launch)
		}
	}
}

// TestProgram: the IMB program a launch line runs, and the benchmarks
// after it.
func TestProgram(t *testing.T) {
	cases := []struct{ lines, program, benches string }{
		{"mpirun -np 2 ./IMB-P2P PingPong", "IMB-P2P", "PingPong"},
		{"mpirun -np 2 /opt/imb/IMB-EXT Unidir_put -npmin 2", "IMB-EXT", "Unidir_put"},
		{"srun -n 2 IMB-NBC Ibcast Iallreduce", "IMB-NBC", "Ibcast Iallreduce"},
		{"mpirun -np 2 IMB-MPI1 PingPong 2>&1 | tee log", "IMB-MPI1", "PingPong"},
		{"mpirun -np 2 -ppn 1 \\\nIMB-RMA Unidir_put", "IMB-RMA", "Unidir_put"},
		// a later launch line says afresh
		{"mpirun -np 2 ./IMB-P2P PingPong\nmpirun -np 2 ./osu_latency", "", ""},
	}
	for _, c := range cases {
		ctx, _ := applied(strings.Split(c.lines, "\n")...)
		if ctx.Program != c.program || strings.Join(ctx.Benches, " ") != c.benches {
			t.Errorf("%q: program %q, benchmarks %q; want %q, %q", c.lines, ctx.Program, ctx.Benches, c.program, c.benches)
		}
	}
}

// TestNodesAndLocality: the nodes a log says the ranks ran on, its
// evidence, and the locality it gives a run of np processes.
func TestNodesAndLocality(t *testing.T) {
	cases := []struct {
		lines    string
		np       int // the launch line's
		nodes    string
		from     string
		world    int // Place's and Locality's argument
		locality string
	}{
		{lines: "srun -N 2 -n 2 ./osu_latency", np: 2, nodes: "2", from: "srun -N 2", locality: result.InterNode},
		{lines: "srun -N2 -n2 ./osu_latency", np: 2, nodes: "2", from: "srun -N2", locality: result.InterNode},
		{lines: "srun --nodes=2 --ntasks=2 ./osu_latency", np: 2, nodes: "2", from: "srun --nodes=2", locality: result.InterNode},
		{lines: "srun --nodes 1 --ntasks 2 ./osu_latency", np: 2, nodes: "1", from: "srun --nodes 1", locality: result.IntraNode},
		{lines: "srun -N 2 -n 4 ./osu_allreduce", np: 4, nodes: "2", from: "srun -N 2"},
		{lines: "srun -N 2-4 -n 4 ./osu_allreduce", np: 4},
		{lines: "time flux run -N2 -n2 -o cpu-affinity=per-task singularity exec img.sif /opt/osu/mpi/pt2pt/osu_latency", np: 2, nodes: "2",
			from: "flux -N2", locality: result.InterNode},
		{lines: "srun -C gpu -N2 -t2 \\\n sarus run --mpi image \\\n ../collective/osu_alltoall", np: 2, nodes: "2", from: "srun -N2", locality: result.InterNode},
		{lines: "srun -n 4 --ntasks-per-node=2 ./osu_allreduce", np: 4, nodes: "2", from: "srun -n 4 --ntasks-per-node=2"},
		{lines: "srun -N2 --ntasks-per-node=4 ./osu_alltoall", np: 8, nodes: "2", from: "srun -N2"},
		{lines: "srun -n 2 --ntasks-per-node 1 ./osu_bw", np: 2, nodes: "2", from: "srun -n 2 --ntasks-per-node 1", locality: result.InterNode},
		// the allocation: srun spreads over it; mpirun may not
		{lines: "#SBATCH --nodes=2\nsrun -n 2 ./osu_latency", np: 2, nodes: "2", from: "#SBATCH --nodes=2", locality: result.InterNode},
		{lines: "#SBATCH -N 2\n#SBATCH -n 1\nsrun -n 1 ./osu_init", np: 1, nodes: "1", from: "#SBATCH -N 2", locality: result.IntraNode},
		{lines: "$ salloc -N 2 -n 2\nsrun ./osu_latency", nodes: "2", from: "salloc -N 2", world: 2, locality: result.InterNode},
		{lines: "SLURM_NNODES=2\nsrun -n 2 ./osu_bw", np: 2, nodes: "2", from: "SLURM_NNODES=2", locality: result.InterNode},
		{lines: "export SLURM_JOB_NUM_NODES=1\nmpirun -np 2 ./osu_bw", np: 2, nodes: "1", from: "SLURM_JOB_NUM_NODES=1", locality: result.IntraNode},
		{lines: "#SBATCH --nodes=2\nmpirun -np 2 ./osu_latency", np: 2},
		// an MPI launcher inside an allocation whose tasks are the run's:
		// Slurm put one on every node at least
		{lines: "$ salloc -N2 -n2\n$ mpiexec IMB-MPI1 pingpong", nodes: "2", from: "salloc -N2 -n2", world: 2, locality: result.InterNode},
		{lines: "[user@login1 ~]$ salloc -N2 -n2\nsalloc: Granted job allocation 6\n[user@cn01 ~]$ mpiexec hostname\ncn01\ncn03\n" +
			"[user@cn01 ~]$ mpiexec IMB-MPI1 pingpong", nodes: "2", from: "salloc -N2 -n2", world: 2, locality: result.InterNode},
		{lines: "#SBATCH --nodes=2\n#SBATCH --ntasks=4\nmpirun ./osu_allreduce", nodes: "2", from: "#SBATCH --nodes=2 --ntasks=4", world: 4},
		{lines: "$ salloc -N2 -n4\n$ mpiexec -n 2 IMB-MPI1 pingpong", np: 2},      // 2 of 4 tasks: where is unsure
		{lines: "$ salloc -N2 -n2\n$ mpiexec -ppn 2 IMB-MPI1 pingpong", world: 2}, // the launcher places them
		{lines: "$ salloc -N2 -n2\n$ mpirun -host a,b IMB-MPI1 pingpong", nodes: "2", world: 2, // its hosts say
			from: "mpirun -host a,b", locality: result.InterNode},
		// host lists
		{lines: "mpirun -np 2 -host node1,node2 ./osu_latency", np: 2, nodes: "2", from: "mpirun -np 2 -host node1,node2", locality: result.InterNode},
		{lines: "mpirun -np 2 -H a:2,b:2 ./osu_latency", np: 2, nodes: "1", from: "mpirun -np 2 -H a:2,b:2", locality: result.IntraNode},
		{lines: "mpirun -np 4 -H a:2,b:2 ./osu_allreduce", np: 4, nodes: "2", from: "mpirun -np 4 -H a:2,b:2"},
		{lines: "mpirun -np 2 --host cn01 ./osu_bw", np: 2, nodes: "1", from: "mpirun -np 2 --host cn01", locality: result.IntraNode},
		{lines: "mpirun -np 2 -hosts cn01,cn02 -ppn 1 ./IMB-MPI1", np: 2, nodes: "2", from: "mpirun -np 2 -hosts cn01,cn02 -ppn 1", locality: result.InterNode},
		{lines: "mpirun -np 3 -hosts a1,a2,a3 -ppn 1 IMB-MPI1 PingPong", np: 3, nodes: "3", from: "mpirun -np 3 -hosts a1,a2,a3 -ppn 1", world: 3, locality: result.InterNode},
		{lines: "mpirun -np 2 -hosts cn01,cn02 ./IMB-MPI1", np: 2}, // Intel MPI fills cn01, MPICH deals: unsure
		{lines: "mpirun -np 4 --map-by node -H a,b,c,d ./osu_allreduce", np: 4, nodes: "4", from: "mpirun -np 4 -H a,b,c,d --map-by node", locality: result.InterNode},
		// ranks per node without hosts
		{lines: "mpirun -np 2 -ppn 1 ./osu_latency", np: 2, nodes: "2", from: "mpirun -np 2 -ppn 1", locality: result.InterNode},
		{lines: "mpirun -np 4 --npernode 2 ./osu_allreduce", np: 4, nodes: "2", from: "mpirun -np 4 --npernode 2"},
		{lines: "mpirun -np 2 --map-by ppr:1:node ./osu_bw", np: 2, nodes: "2", from: "mpirun -np 2 --map-by ppr:1:node", locality: result.InterNode},
		{lines: "aprun -n 2 -N 1 ./osu_latency", np: 2, nodes: "2", from: "aprun -n 2 -N 1", locality: result.InterNode},
		{lines: "aprun -n 2 -N 2 ./osu_latency", np: 2, nodes: "1", from: "aprun -n 2 -N 2", locality: result.IntraNode},
		{lines: "jsrun -r1 -a1 -n2 ./osu_latency", np: 2, nodes: "2", from: "jsrun -r1 -a1 -n2", locality: result.InterNode},
		{lines: "jsrun --nrs 4 --rs_per_host 2 --tasks_per_rs 1 ./osu_allreduce", np: 4, nodes: "2",
			from: "jsrun --nrs 4 --rs_per_host 2 --tasks_per_rs 1"},
		// lines that name the hosts; one name alone may be the batch host
		{lines: "nodes cn01 cn02\nmpirun -np 2 ./osu_latency", np: 2, nodes: "2", from: "nodes cn01 cn02", locality: result.InterNode},
		{lines: "Running on hosts: alpha beta", nodes: "2", from: "Running on hosts: alpha beta", world: 2, locality: result.InterNode},
		{lines: "Running on host cn01\nmpirun -np 2 ./osu_latency", np: 2},
		{lines: "nodes are busy", np: 0},
		{lines: "Point-to-point pairwise experiments for nodes cn01 cn02", world: 2, nodes: "2",
			from: "Point-to-point pairwise experiments for nodes cn01 cn02", locality: result.InterNode},
		// two hosts named, but not one for each rank: unsure
		{lines: "nodes cn01 cn02\nmpirun -np 4 ./osu_mbw_mr", np: 4},
		{lines: "Point-to-point pairwise experiments for nodes cn01 cn02\nAllreduce iteration 0"},
		{lines: "Nodes:, openhpc-compute-[0-1]", world: 2, nodes: "2", from: "Nodes:, openhpc-compute-[0-1]", locality: result.InterNode},
		{lines: "nodes: cn[01-04]\nmpirun -np 4 ./osu_mbw_mr", np: 4, nodes: "4", from: "nodes: cn[01-04]", locality: result.InterNode},
		{lines: "flux-sample-2 flux-sample-12", world: 2, nodes: "2", from: "flux-sample-2 flux-sample-12", locality: result.InterNode},
		{lines: "openmpi@1.10.7%intel@19.0.5.281 osu_latency_mt", world: 2},
		// a job script's report of its counts
		{lines: "Number of nodes: 64\nnumber of process: 2048", np: 2048, nodes: "64", from: "Number of nodes: 64", world: 2048},
		// a line that says the count
		{lines: "Running Pingpong on 2 cores, 2 nodes with tasks-per-node 1", world: 2, nodes: "2",
			from: "Running Pingpong on 2 cores, 2 nodes with tasks-per-node 1", locality: result.InterNode},
		{lines: "Running Barrier on 72 cores, 2 nodes with tasks-per-node 36", world: 72, nodes: "2",
			from: "Running Barrier on 72 cores, 2 nodes with tasks-per-node 36"},
		// the MPI library's own lines
		{lines: "mpirun -np 2 ./IMB-MPI1\n[0] MPI startup(): Rank    Pid      Node name  Pin cpu\n" +
			"[0] MPI startup(): 0       4012     cn01       {0}\n[0] MPI startup(): 1       4013     cn01       {1}",
			np: 2, nodes: "1", from: "I_MPI_DEBUG rank table: cn01", locality: result.IntraNode},
		{lines: "mpirun -np 2 --report-bindings ./osu_bw\n[cn01:1234] MCW rank 0 bound to socket 0[core 0[hwt 0]]: [B/.]\n" +
			"[cn02:1240] MCW rank 1 bound to socket 0[core 0[hwt 0]]: [B/.]",
			np: 2, nodes: "2", from: "--report-bindings: cn01 cn02", locality: result.InterNode},
		// a launch line says afresh: the earlier one's -np and hosts do not carry over
		{lines: "mpirun -np 2 -hosts cn01,cn02 -ppn 1 ./osu_latency\nsrun ./osu_allreduce", np: 0},
	}
	for _, c := range cases {
		ctx, run := applied(strings.Split(c.lines, "\n")...)
		ctx.Place(run, c.world)
		m := run.Source.Meta
		if ctx.NP != c.np || m["nodes"] != c.nodes || m["nodes_from"] != c.from {
			t.Errorf("%q:\n got np %d, nodes %q from %q\nwant np %d, nodes %q from %q", c.lines, ctx.NP, m["nodes"], m["nodes_from"],
				c.np, c.nodes, c.from)
		}
		if got := ctx.Locality(c.world); got != c.locality {
			t.Errorf("%q: locality %q, want %q", c.lines, got, c.locality)
		}
	}
}

// TestFabric: the first clear line naming a transport, kept verbatim;
// lines that leave it open name none.
func TestFabric(t *testing.T) {
	cases := []struct{ lines, fabric, from string }{
		{"export FI_PROVIDER=efa", "efa", "export FI_PROVIDER=efa"},
		{"FI_PROVIDER=verbs;ofi_rxm", "verbs", "FI_PROVIDER=verbs;ofi_rxm"},
		{"export I_MPI_FABRICS=shm:ofi\nexport I_MPI_OFI_PROVIDER=mlx", "mlx", "export I_MPI_OFI_PROVIDER=mlx"},
		{"export I_MPI_FABRICS=shm:ofi", "", ""},
		{"export I_MPI_FABRICS=shm", "shm", "export I_MPI_FABRICS=shm"},
		{"$ export I_MPI_FABRICS=shm:tcp", "tcp", "$ export I_MPI_FABRICS=shm:tcp"},
		{"[0] MPI startup(): libfabric version: 1.18.1-impi\n[0] MPI startup(): libfabric provider: efa",
			"efa", "[0] MPI startup(): libfabric provider: efa"},
		{"[0] MPI startup(): ofi provider: psm3", "psm3", "[0] MPI startup(): ofi provider: psm3"},
		{"[0] MPI startup(): shm and tcp data transfer modes", "tcp", "[0] MPI startup(): shm and tcp data transfer modes"},
		{"[0] MPI startup(): I_MPI_MPIRUN=mpirun", "", ""},
		{"export UCX_TLS=rc,sm,self", "ucx", "export UCX_TLS=rc,sm,self"},
		{"UCX_TLS=dc_x,self,cuda_copy", "ucx", "UCX_TLS=dc_x,self,cuda_copy"},
		{"export UCX_TLS=tcp", "tcp", "export UCX_TLS=tcp"},
		{"export UCX_TLS=sm,self", "shm", "export UCX_TLS=sm,self"},
		{"export UCX_TLS=all", "", ""},
		{"export UCX_TLS=^rc", "", ""},
		{"export UCX_NET_DEVICES=mlx5_0:1", "ucx", "export UCX_NET_DEVICES=mlx5_0:1"},
		{"export OMPI_MCA_pml=ucx", "ucx", "export OMPI_MCA_pml=ucx"},
		{"mpirun -np 2 --mca pml ucx ./osu_latency", "ucx", "mpirun -np 2 --mca pml ucx ./osu_latency"},
		{"mpirun -np 2 --mca btl tcp,self ./osu_latency", "tcp", "mpirun -np 2 --mca btl tcp,self ./osu_latency"},
		{"mpirun -np 2 -mca btl self,vader ./osu_latency", "shm", "mpirun -np 2 -mca btl self,vader ./osu_latency"},
		{"mpirun -np 2 --mca btl ^openib ./osu_latency", "", ""},
		{"mpirun -np 2 -x UCX_TLS=rc_x ./osu_latency", "ucx", "mpirun -np 2 -x UCX_TLS=rc_x ./osu_latency"},
		{"mpiexec -n 2 -genv FI_PROVIDER cxi ./osu_latency", "cxi", "mpiexec -n 2 -genv FI_PROVIDER cxi ./osu_latency"},
		{"Rank 0 node nid001234 selected NIC index=0, domain_name=cxi0, MPICH_OFI_NIC_POLICY=BLOCK", "cxi",
			"Rank 0 node nid001234 selected NIC index=0, domain_name=cxi0, MPICH_OFI_NIC_POLICY=BLOCK"},
		{"libfabric:4711:1700000000::efa:core:efa_device_init():123<info> device: rdmap0s6", "efa",
			"libfabric:4711:1700000000::efa:core:efa_device_init():123<info> device: rdmap0s6"},
		{"libfabric:4711:1700000000::shm:core:smr_init():88<info> ok", "", ""},
		{"libfabric:4711:1700000000:efa:core:efa_device_init():123<info> device: rdmap0s6", "efa",
			"libfabric:4711:1700000000:efa:core:efa_device_init():123<info> device: rdmap0s6"},
		// prose about a provider names none
		{"1. [Only using the CXI provider][ref-communication-openmpi-cxi].", "", ""},
		// the first clear one wins
		{"export FI_PROVIDER=tcp\n[0] MPI startup(): libfabric provider: efa", "tcp", "export FI_PROVIDER=tcp"},
		{"export FI_PROVIDER=" + strings.Repeat("x", 200), "", ""},
	}
	for _, c := range cases {
		_, run := applied(strings.Split(c.lines, "\n")...)
		if m := run.Source.Meta; m["fabric"] != c.fabric || m["fabric_from"] != c.from {
			t.Errorf("%q: fabric %q from %q, want %q from %q", c.lines, m["fabric"], m["fabric_from"], c.fabric, c.from)
		}
	}
	long := "export FI_PROVIDER=efa # " + strings.Repeat("é", 100)
	if _, run := applied(long); len(run.Source.Meta["fabric_from"]) > 120 || !strings.HasPrefix(run.Source.Meta["fabric_from"], "export FI_PROVIDER=efa") {
		t.Errorf("long line kept as %q", run.Source.Meta["fabric_from"])
	}
}

// TestFabricCarriesOver: an exported provider holds for the runs after
// it until a line names another.
func TestFabricCarriesOver(t *testing.T) {
	c := &Context{}
	var got []string
	for _, step := range [][]string{{"export FI_PROVIDER=efa", "mpirun -np 2 ./osu_latency"}, {"mpirun -np 2 ./osu_bw"},
		{"export FI_PROVIDER=tcp"}} {
		for _, l := range step {
			c.Note(l)
		}
		run := &result.Run{Source: &result.Source{Meta: map[string]string{}}}
		c.Apply(run)
		got = append(got, run.Source.Meta["fabric"])
	}
	if strings.Join(got, " ") != "efa efa tcp" {
		t.Errorf("fabrics %v, want efa efa tcp", got)
	}
	// a container's environment is not the shell's
	_, run := applied("export FI_PROVIDER=cxi", "srun -N2 --environment=omb-no-cxi ./osu_bw")
	if f := run.Source.Meta["fabric"]; f != "" {
		t.Errorf("fabric %q through a container launch", f)
	}
	_, run = applied("export FI_PROVIDER=cxi", "srun -N2 singularity exec img.sif ./osu_bw", "[0] MPI startup(): libfabric provider: cxi")
	if f := run.Source.Meta["fabric_from"]; f != "[0] MPI startup(): libfabric provider: cxi" {
		t.Errorf("fabric from %q, want the run's own line", f)
	}
}
