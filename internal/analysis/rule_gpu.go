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
	var t0, t1 float64
	for _, r := range s.rows {
		switch r.bytes {
		case 0:
			t0 = r.primary
		case 1:
			t1 = r.primary
		}
	}
	if !(t0 > 0) || !(t1 >= th.GPUStagingRatio*t0) || t1-t0 < th.GPUStagingMinUS {
		return nil
	}
	return []Finding{{Kind: KindGPU, Severity: Warning, Series: s.Series, Sizes: []int64{0, 1},
		Summary: fmt.Sprintf("%s: a 1-byte message between GPU buffers costs %.0f× an empty one", name(s.Series), t1/t0),
		Numbers: []string{fmt.Sprintf("0 B: %s (no device memory touched); 1 B: %s, %s more", us(t0), us(t1), us(t1-t0))},
		Cause:   "every message that carries data is staged through host memory: the MPI (or its UCX/libfabric layer) does not reach GPU memory directly for small messages. Check GPUDirect RDMA (the nvidia-peermem module loaded), GDRCopy (gdrdrv loaded, UCX_TLS including gdr_copy), and that the MPI is built CUDA-aware with them; large messages may still be fine (a pipelined rendezvous)"}}
}
