package osutext

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteLogRelease: an imported log written back as text names the
// release its title had (a CUDA build's title and buffer line too) and
// prints a "# Datatype" line only where the log had one (OSU 5 and 6 print
// none).
func TestWriteLogRelease(t *testing.T) {
	cases := []struct {
		log, title string
		datatype   bool
	}{
		{"osu532_latency.txt", "# OSU MPI Latency Test v5.3.2", false},
		{"osu5_latency.txt", "# OSU MPI Latency Test v5.6.3", false},
		{"osu6_allreduce_np4.txt", "# OSU MPI Allreduce Latency Test v6.1", false},
		{"osu7_bcast_f_np4.txt", "# OSU MPI Broadcast Latency Test v7.0", false},
		{"osu_latency_np2.txt", "# OSU MPI Latency Test v7.2", true},
		{"osu74_allreduce_persistent_f_np2.txt", "# OSU MPI Allreduce Persistent Latency Test v7.4", true},
		{"osu_init_np2.txt", "# OSU MPI Init Test v7.2", false},
		// a CUDA build's title and buffer line come back as they were
		{"osu58_cuda_latency_DH.txt", "# OSU MPI-CUDA Latency Test v5.8\n# Send Buffer on DEVICE (D) and Receive Buffer on HOST (H)", false},
	}
	for _, c := range cases {
		t.Run(c.log, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("..", "..", "importer", "testdata", c.log))
			if err != nil {
				t.Fatal(err)
			}
			text := string(write(t, read(t, c.log, data).Runs))
			if !strings.Contains(text, c.title+"\n") {
				t.Errorf("no %q in\n%s", c.title, text)
			}
			if got := strings.Contains(text, "# Datatype"); got != c.datatype {
				t.Errorf("a Datatype line: %v, want %v\n%s", got, c.datatype, text)
			}
		})
	}
}
