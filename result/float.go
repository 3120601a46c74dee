package result

import (
	"encoding/json"
	"math"
)

// Float is a number that may have no value: a speed over an empty size
// band, a p-value without enough launches, a size the run lacks, a median
// of no samples (NaN), or an infinite ratio. JSON has none of these, and
// encoding/json refuses a whole document for one, so Float writes them as
// null (and reads null back as NaN); a finite Float is written exactly as
// encoding/json writes a float64.
type Float float64

// MarshalJSON writes null for NaN and ±Inf.
func (f Float) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(f))
}

// UnmarshalJSON reads null as NaN.
func (f *Float) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*f = Float(math.NaN())
		return nil
	}
	var v float64
	err := json.Unmarshal(b, &v)
	*f = Float(v)
	return err
}

// Floats converts values to Floats.
func Floats(v []float64) []Float {
	if v == nil {
		return nil
	}
	out := make([]Float, len(v))
	for i, x := range v {
		out[i] = Float(x)
	}
	return out
}
