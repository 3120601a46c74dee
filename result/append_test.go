package result

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"
)

// fill sets v (a settable value) at random: every kind Result holds,
// zero or not, with the values JSON encodes in odd ways.
func fill(rng *rand.Rand, v reflect.Value) {
	if rng.IntN(4) == 0 {
		v.SetZero()
		return
	}
	if v.Type() == reflect.TypeFor[time.Time]() {
		times := []time.Time{
			time.Date(2026, 11, 30, 3, 4, 5, 123456789, time.UTC),
			time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("x", -5*3600-30*60)),
			time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), // no JSON for it
			time.Date(-1, 1, 1, 0, 0, 0, 0, time.UTC),
			time.Unix(rng.Int64N(1<<32), rng.Int64N(1e9)),
		}
		v.Set(reflect.ValueOf(times[rng.IntN(len(times))]))
		return
	}
	switch v.Kind() {
	case reflect.String:
		s := []string{"PingPong", "ok", "intra-node", "<&>", "a\"b\\c", "\u2028", "\x01", "caf\xc3\xa9", "\xff", ""}
		v.SetString(s[rng.IntN(len(s))])
	case reflect.Int, reflect.Int64:
		v.SetInt(rng.Int64N(1<<40) - 1<<39)
	case reflect.Float64:
		f := []float64{0, math.Copysign(0, -1), 1.52, -3.25e-7, 1e-6, 9.99e-7, 1e21, 123456789012345678901234.0,
			5e-324, math.MaxFloat64, rng.Float64() * 1e6, rng.NormFloat64()}
		if rng.IntN(50) == 0 {
			f = []float64{math.NaN(), math.Inf(1), math.Inf(-1)}
		}
		v.SetFloat(f[rng.IntN(len(f))])
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Slice:
		n := rng.IntN(4)
		v.Set(reflect.MakeSlice(v.Type(), n, n))
		for i := range n {
			fill(rng, v.Index(i))
		}
	case reflect.Array:
		for i := range v.Len() {
			fill(rng, v.Index(i))
		}
	case reflect.Pointer:
		p := reflect.New(v.Type().Elem())
		fill(rng, p.Elem())
		v.Set(p)
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(rng, v.Field(i))
			}
		}
	default:
		panic("fill: no case for " + v.Type().String() + ": add one")
	}
}

// TestAppendResult: the hand-written encoder of result records writes
// json.Marshal's bytes, and fails where it fails, for results with every
// field set or not at random.
func TestAppendResult(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 20000 {
		var r Result
		fill(rng, reflect.ValueOf(&r).Elem())
		want, werr := json.Marshal(&r)
		got, gerr := appendResult(nil, &r)
		if (werr != nil) != (gerr != nil) {
			t.Fatalf("case %d: error %v, json.Marshal's %v\n%+v", i, gerr, werr, r)
		}
		if werr == nil && string(got) != string(want) {
			t.Fatalf("case %d differs:\n got %s\nwant %s", i, got, want)
		}
	}
	// Every field, set alone, shows: a field added to Result and not to
	// appendResult fails here.
	rt := reflect.TypeFor[Result]()
	for i := range rt.NumField() {
		var r Result
		for range 20 { // until the field is set to something JSON can hold
			fill(rng, reflect.ValueOf(&r).Elem().Field(i))
			if _, err := json.Marshal(&r); err == nil && !reflect.ValueOf(r).Field(i).IsZero() {
				break
			}
		}
		want, _ := json.Marshal(&r)
		got, _ := appendResult(nil, &r)
		if string(got) != string(want) {
			t.Errorf("field %s:\n got %s\nwant %s", rt.Field(i).Name, got, want)
		}
	}
}

func BenchmarkEncodeResult(b *testing.B) {
	prec := 0.012
	r := &Result{Type: TypeResult, Schema: Schema, RunID: "f1dec0785e7874e5-0", Suite: "imb", Benchmark: "PingPong",
		NP: 2, Groups: 1, Group: -1, Bytes: 1024, Repetitions: 1000, Status: StatusOK, TMinUS: 1.52, TMaxUS: 1.53,
		TAvgUS: 1.525, MBps: 670.3, Locality: IntraNode, Ranks: []int{}, RankMeanUS: []float64{}, SamplesUS: [][]float64{},
		Precision: &prec, Time: time.Date(2026, 11, 30, 3, 4, 5, 0, time.UTC)}
	b.Run("encoding_json", func(b *testing.B) {
		for b.Loop() {
			json.Marshal(r)
		}
	})
	b.Run("appendResult", func(b *testing.B) {
		var buf []byte
		for b.Loop() {
			buf, _ = appendResult(buf[:0], r)
		}
	})
}
