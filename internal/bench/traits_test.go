package bench

import (
	"math"
	"testing"
)

// The cost models and bus factors at p = 4 (⌈log2 p⌉ = 2), α = 1 µs,
// β = 0.01 µs/B, n = 100 B, worked by hand.
func TestCostModels(t *testing.T) {
	const a, b, n, p = 1.0, 0.01, 100.0, 4.0
	tm := func(m float64) float64 { return a + b*m }
	cases := []struct {
		name string
		got  float64
		want float64
	}{
		{"barrier: 2 rounds", CostBarrier(tm, n, p), 2},
		{"tree: min(2·(1+1), 2·2·1 + 1.5·1)", CostTree(tm, n, p), 4},
		{"allgather: min(2 + 3·1, 3·(1+1))", CostAllgather(tm, n, p), 5},
		{"reduce_scatter: min(2 + 0.75, 3·(1+0.25))", CostReduceScatter(tm, n, p), 2.75},
		{"alltoall: min(3·(1+1), 2·(1+2))", CostAlltoall(tm, n, p), 6},
		{"gather: 2 + 3·1", CostGather(tm, n, p), 5},
		{"bus allreduce", BusAllreduce(p), 1.5},
		{"bus allgather", BusAllgather(p), 3},
		{"bus alltoall", BusAlltoall(p), 3},
		{"bus bcast", BusBcast(p), 1},
		{"bus reduce_scatter", BusReduceScatter(p), 0.75},
	}
	for _, c := range cases {
		if math.Abs(c.got-c.want) > 1e-12 {
			t.Errorf("%s = %g, want %g", c.name, c.got, c.want)
		}
	}
}

func TestTraitsRegistry(t *testing.T) {
	RegisterTraits(Traits{Suite: "test", Name: "Ping", Label: "ping", Reference: true})
	for _, n := range []string{"Ping", "ping", "PING"} {
		if tr, ok := TraitsOf("test", n); !ok || !tr.Reference || tr.Label != "ping" {
			t.Errorf("TraitsOf(test, %s) = %+v, %v", n, tr, ok)
		}
	}
	if _, ok := TraitsOf("other", "Ping"); ok {
		t.Error("traits found under another suite")
	}
}
