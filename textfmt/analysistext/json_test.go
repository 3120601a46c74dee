package analysistext

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/analysis"
)

// TestWriteJSONAsEncodingJSON: for finite values WriteJSON writes what
// encoding/json writes; not-finite floats become null anywhere.
func TestWriteJSONAsEncodingJSON(t *testing.T) {
	type inner struct {
		X float64 `json:"x"`
	}
	type withTags struct {
		inner
		Name    string          `json:"name"`
		Skip    int             `json:"-"`
		Empty   []int           `json:"empty,omitempty"`
		Ptr     *float64        `json:"ptr"`
		M       map[string]any  `json:"m"`
		IntKeys map[int]float64 `json:"int_keys"`
		When    time.Time       `json:"when"`
		Raw     json.RawMessage `json:"raw"`
		Bytes   []byte          `json:"bytes"`
		unexp   int
		Nested  []map[string]analysis.Band `json:"nested"`
	}
	one := 1.5
	cases := []any{
		nil, 1.25, "s", []float64{1, 2}, map[string]int{"b": 1, "a": 2},
		withTags{inner: inner{X: 2}, Name: "n", Skip: 3, Ptr: &one, M: map[string]any{"z": 1, "a": []any{1.5, "x"}},
			IntKeys: map[int]float64{10: 1, 2: 3}, When: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
			Raw: json.RawMessage(`{"k":1}`), Bytes: []byte("ab"), unexp: 1,
			Nested: []map[string]analysis.Band{{"b": analysis.Bands[0]}}},
		&analysis.Row{Key: analysis.Key{Suite: "imb", Benchmark: "PingPong", NP: 2, Bytes: 8}, A: []float64{1}},
	}
	for i, c := range cases {
		want, err := json.MarshalIndent(c, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := WriteJSON(&got, c); err != nil {
			t.Fatal(err)
		}
		if got.String() != string(want)+"\n" {
			t.Errorf("case %d:\n got %s\nwant %s", i, got.String(), want)
		}
	}
	var got bytes.Buffer
	row := analysis.Row{Speed: math.NaN(), Lo: math.Inf(1), Hi: math.Inf(-1), A: []float64{math.NaN(), 2}}
	if err := WriteJSON(&got, row); err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(got.Bytes(), &back); err != nil {
		t.Fatalf("%v:\n%s", err, got.String())
	}
	if back["Speed"] != nil || back["Lo"] != nil || back["Hi"] != nil || back["A"].([]any)[0] != nil || back["A"].([]any)[1] != 2.0 {
		t.Errorf("not-finite values: %s", got.String())
	}
}
