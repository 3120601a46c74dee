package text

import (
	"bytes"
	"encoding/json"
	"math"
	"regexp"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/internal/analysis"
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
		&analysis.Row{Key: analysis.Key{Suite: "imb", Benchmark: "PingPong", NP: 2, Bytes: 8}, A: []analysis.Float{1}},
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
	row := analysis.Row{Speed: analysis.Float(math.NaN()), Lo: analysis.Float(math.Inf(1)), Hi: analysis.Float(math.Inf(-1)), A: []analysis.Float{analysis.Float(math.NaN()), 2}}
	if err := WriteJSON(&got, row); err != nil {
		t.Fatal(err)
	}
	var back map[string]any
	if err := json.Unmarshal(got.Bytes(), &back); err != nil {
		t.Fatalf("%v:\n%s", err, got.String())
	}
	if back["speed"] != nil || back["lo"] != nil || back["hi"] != nil || back["a"].([]any)[0] != nil || back["a"].([]any)[1] != 2.0 {
		t.Errorf("not-finite values: %s", got.String())
	}
}

// TestJSONKeysSnakeCase: the -json of compare, check and explain names
// every field in snake_case, as the records do.
func TestJSONKeysSnakeCase(t *testing.T) {
	snake := regexp.MustCompile(`^[a-z][a-z0-9_]*$`)
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if !snake.MatchString(k) {
					t.Errorf("%s: key %q is not snake_case", path, k)
				}
				walk(path+"."+k, x)
			}
		case []any:
			for _, x := range v {
				walk(path+"[]", x)
			}
		}
	}
	for name, v := range map[string]any{
		"compare": analysis.Comparison{Rows: []analysis.Row{{}}, Series: []analysis.SeriesSummary{{Bands: []analysis.BandSpeed{{}}}}},
		"check":   analysis.CheckResult{Rows: []analysis.CheckRow{{}}},
		"explain": []analysis.Finding{{Sizes: []int64{8}}},
		"options": analysis.ExplainOptions{Thresholds: &analysis.DefaultThresholds},
	} {
		var b bytes.Buffer
		if err := WriteJSON(&b, v); err != nil {
			t.Fatal(err)
		}
		var back any
		if err := json.Unmarshal(b.Bytes(), &back); err != nil {
			t.Fatal(err)
		}
		walk(name, back)
	}
}
