package report

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/gomb-hpc/gomb/internal/analysis"
	"github.com/gomb-hpc/gomb/result"
)

// TestChartData: the charts carry, aligned on the sizes of every side,
// each side's t_avg, its t_min-t_max band and the p10-p90 band of the raw
// samples (from analysis.Profiles), null where a side lacks a size; the
// data block cannot close its script element.
func TestChartData(t *testing.T) {
	res := func(bytes int64, tavg float64, samples ...float64) *result.Result {
		return &result.Result{Suite: "imb", Benchmark: "PingPong", NP: 2, Bytes: bytes, Status: result.StatusOK,
			TMinUS: tavg * 0.9, TAvgUS: tavg, TMaxUS: tavg * 1.1, SamplesUS: [][]float64{samples}}
	}
	var ten []float64
	for i := 1; i <= 10; i++ {
		ten = append(ten, float64(i))
	}
	a := []*result.Bundle{{Run: &result.Run{}, Results: []*result.Result{res(8, 5.5, ten...), res(64, 7, 7)}}}
	b := []*result.Bundle{{Run: &result.Run{}, Results: []*result.Result{res(8, 3, 3), res(1024, 9, 9)}}}
	curves := []Curve{{Label: "A </script>", Profile: analysis.Profiles(a)[0]}, {Label: "B", Profile: analysis.Profiles(b)[0]}}
	ch := latencyChart("t", curves)
	if len(ch.X) != 3 || ch.X[0] != 8 || ch.X[2] != 1024 || len(ch.Series) != 2 {
		t.Fatalf("chart %+v", ch)
	}
	sa := ch.Series[0]
	if sa.Y[0] != 5.5 || sa.Lo[0] != 4.95 || math.Abs(float64(sa.Hi[0])-6.05) > 1e-9 || !math.IsNaN(float64(sa.Y[2])) {
		t.Errorf("A: y %v lo %v hi %v", sa.Y, sa.Lo, sa.Hi)
	}
	if math.Abs(float64(sa.P10[0])-1.9) > 1e-9 || math.Abs(float64(sa.P90[0])-9.1) > 1e-9 {
		t.Errorf("A's p10-p90 at 8 B: %v-%v, want 1.9-9.1", sa.P10[0], sa.P90[0])
	}
	r := &Report{Sections: []Section{{Charts: []Chart{ch}}}}
	data, err := r.ChartData()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "</script") || !strings.Contains(string(data), `"y":[5.5,7,null]`) {
		t.Errorf("data %s", data)
	}
	var back []Chart
	if err := json.Unmarshal([]byte(data), &back); err != nil || len(back) != 1 || back[0].Series[0].Label != "A </script>" {
		t.Errorf("data does not read back: %v", err)
	}
}
