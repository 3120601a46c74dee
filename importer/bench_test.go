package importer

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

// BenchmarkImportIMB reads a synthetic log set of about 32 MB: the real
// IMB-MPI1 logs in testdata, each repeated with its own date so that every
// copy is a run of its own, with launcher lines in between.
func BenchmarkImportIMB(b *testing.B) {
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
	data := set.Bytes()
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
