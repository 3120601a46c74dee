package importer

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gomb-hpc/gomb/result"
)

// BenchmarkImportIMB reads a synthetic log set of about 32 MB: the real
// IMB-MPI1 logs in testdata, each repeated with its own date so that every
// copy is a run of its own, with launcher lines in between.
func BenchmarkImportIMB(b *testing.B) {
	data := logSet(b)
	b.SetBytes(int64(len(data)))
	var runs, results int
	for b.Loop() {
		f, err := Import(data, "set.log", Options{})
		if err != nil {
			b.Fatal(err)
		}
		runs, results = len(f.Runs), 0
		for _, r := range f.Runs {
			results += len(r.Results)
		}
	}
	b.ReportMetric(float64(runs), "runs")
	b.ReportMetric(float64(results), "results")
}

// BenchmarkImportFileEncode is gomb import's path: the log set read from a
// file a line at a time and every run encoded as records as it completes.
func BenchmarkImportFileEncode(b *testing.B) {
	path := filepath.Join(b.TempDir(), "set.log")
	data := logSet(b)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		w := bufio.NewWriterSize(io.Discard, 1<<20)
		if _, err := ImportFile(path, "set.log", Options{}, func(r *result.Bundle) error { return r.Encode(w) }); err != nil {
			b.Fatal(err)
		}
		w.Flush()
	}
}

// logSet is the synthetic set of about 32 MB.
func logSet(b *testing.B) []byte {
	var logs [][]byte
	for _, name := range inputs(b) {
		data := mustRead(b, name)
		if Sniff(data) == IMB && strings.Contains(name, "imb") {
			logs = append(logs, data)
		}
	}
	var set bytes.Buffer
	for i := 0; set.Len() < 32<<20; i++ {
		fmt.Fprintf(&set, "mpirun -np 2 -hosts n%d,n%d -ppn 1 IMB-MPI1\n", i, i+1)
		set.Write(bytes.Replace(logs[i%len(logs)], []byte("2026"), []byte(fmt.Sprint(2000+i%26)), 1))
	}
	return set.Bytes()
}
