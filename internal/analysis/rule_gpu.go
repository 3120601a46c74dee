package analysis

import "fmt"

// gpuStaging: with messages in GPU memory, a latency benchmark whose
// one-byte message costs GPUStagingRatio times an empty one (and
// GPUStagingMinUS more): an empty message never touches the device, so
// the difference is what reaching GPU memory costs — a copy through host
// memory for every eager message, where GPUDirect RDMA or GDRCopy would
// cost a microsecond or two (OSU -d cuda D D on a field log: 1.7 µs at 0
// B, 17 µs from 1 B, 10x the host-to-host latency on the same nodes).
func gpuStaging(in *explainInput, s *series, _ []Finding) []Finding {
	th := in.th
	if !s.traits().Latency || !gpuBuffers(in.run.Run) {
		return nil
	}
	t0, t1 := at(s, 0), at(s, 1)
	against, what := t0, "an empty one"
	numbers := []string{fmt.Sprintf("0 B: %s (no device memory touched); 1 B: %s, %s more", us(t0), us(t1), us(t1-t0))}
	if !(t0 > 0) { // OSU 7 starts at 1 B: the log's host-buffer run of the test, if any
		if h := hostPeer(in, s); h != nil {
			against, what = at(h, 1), "one between host buffers"
			numbers = []string{fmt.Sprintf("1 B: %s between GPU buffers, %s between host buffers in the same log, %s more", us(t1), us(against), us(t1-against))}
		}
	}
	if !(against > 0) || !(t1 >= th.GPUStagingRatio*against) || t1-against < th.GPUStagingMinUS {
		return nil
	}
	cause := "every message that carries data is staged through host memory: the MPI (or its UCX/libfabric layer) does not reach GPU memory directly for small messages. Check GPUDirect RDMA (the nvidia-peermem module loaded), GDRCopy (gdrdrv loaded, UCX_TLS including gdr_copy), and that the MPI is built CUDA-aware with them; large messages may still be fine (a pipelined rendezvous)"
	if staged(s) {
		cause = "gomb staged every message through host memory itself (a cudaMemcpy before each send and after each receive, in the timed loop): the MPI library is not CUDA-aware. Use a CUDA-aware build (Open MPI or MPICH with CUDA, UCX with cuda_copy and gdr_copy) to measure what the MPI does with GPU memory. Where both ranks share one GPU without MPS, each copy also waits for the GPU to switch between their contexts (on an H200, MPICH 4.0 staged: 156 µs a 1-byte round trip half between GPU buffers, 7.8 µs with one rank's buffer on the host)"
	}
	return []Finding{{Kind: KindGPU, Severity: Warning, Series: s.Series, Sizes: []int64{0, 1},
		Summary: fmt.Sprintf("%s: a 1-byte message between GPU buffers costs %.0f× %s", name(s.Series), t1/against, what),
		Numbers: numbers,
		Cause:   cause}}
}

// staged reports whether gomb staged the series' transfers through host
// memory itself (its records say so: the MPI is not CUDA-aware).
func staged(s *series) bool {
	for _, r := range s.rows {
		for _, x := range r.res {
			if x.Staged {
				return true
			}
		}
	}
	return false
}

// at is a series' primary value at a size, 0 where it has none.
func at(s *series, b int64) float64 {
	for _, r := range s.rows {
		if r.bytes == b {
			return r.primary
		}
	}
	return 0
}

// hostPeer is the series of s's benchmark in the log's other runs whose
// buffers were on the host (osu_latency beside osu_latency D D).
func hostPeer(in *explainInput, s *series) *series {
	for _, p := range in.peers {
		if gpuBuffers(p.Run) {
			continue
		}
		for _, o := range in.cache.seriesOf(p) {
			if o.Suite == s.Suite && o.Benchmark == s.Benchmark && o.NP == s.NP {
				return o
			}
		}
	}
	return nil
}
