package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// The peers are programs the user has installed; this tool never builds
// one. Each is looked up by the name its project installs it under:
//
//	IMB-MPI1, IMB-NBC, IMB-MPI4, IMB-EXT, IMB-RMA, IMB-P2P, IMB-MT, IMB-IO
//	osu_<test> (osu_latency, osu_allreduce_persistent, osu_hello, ...)
//	mpi_comm_bench
//
// below the folder -peers names (for OSU's tests, below -osu or -osu74
// where given). The search goes down breadth first, follows symbolic
// links (a folder of links to installed prefixes is the usual -peers),
// stops maxPeerDepth levels down, and takes the shallowest match,
// alphabetically within a level. So each of these is found as installed:
//
//   - a folder of the programs themselves;
//   - Spack's prefixes: intel-mpi-benchmarks' bin/IMB-*, and
//     osu-micro-benchmarks' libexec/osu-micro-benchmarks/mpi/{pt2pt,
//     collective,one-sided,startup}/ (OSU 7 adds a level: pt2pt/standard/,
//     collective/blocking/, ...), which is also where OSU's own `make
//     install` and MVAPICH put them;
//   - HPC-X's $HPCX_MPI_TESTS_DIR (imb/IMB-MPI1, and $HPCX_OSU_DIR below
//     it, osu-micro-benchmarks/);
//   - Intel MPI's bin/ (IMB-MPI1 and the other IMB programs beside mpirun);
//   - mpi-comm-bench's build folder (mpi_comm_bench).
//
// docs/fidelity.md tells where each peer comes from.
const maxPeerDepth = 8

// findPeer returns the path of the executable file name below root, or an
// error that says in a line why there is none.
func findPeer(root, name string) (string, error) {
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("no folder %s", root)
	}
	seen := map[string]bool{}
	level := []string{root}
	for depth := 0; depth < maxPeerDepth && len(level) > 0; depth++ {
		var next []string
		for _, dir := range level {
			real, err := filepath.EvalSymlinks(dir)
			if err != nil || seen[real] {
				continue // a dangling link, or a loop of links
			}
			seen[real] = true
			ents, err := os.ReadDir(dir) // sorted by name
			if err != nil {
				continue
			}
			for _, e := range ents {
				p := filepath.Join(dir, e.Name())
				fi, err := os.Stat(p) // through a link
				if err != nil {
					continue
				}
				switch {
				case fi.IsDir():
					next = append(next, p)
				case e.Name() == name && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0:
					return filepath.Abs(p)
				}
			}
		}
		level = next
	}
	return "", fmt.Errorf("no %s below %s", name, root)
}

// peerAt checks a peer's path given by its own flag: an executable file.
func peerAt(path, name string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
		return "", fmt.Errorf("no %s at %s", name, path)
	}
	return filepath.Abs(path)
}
