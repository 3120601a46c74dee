package result

import (
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"
)

// appendResult appends r as encoding/json's Marshal writes it, in a
// fraction of the time: an import encodes hundreds of thousands of result
// records, and encoding/json's reflection was most of its work; a JSON
// library linked into every measuring rank would cost it memory.
// TestAppendResult keeps it byte for byte equal to json.Marshal for every
// field; a field added to Result must be added here too, and that test
// fails until it is.
func appendResult(b []byte, r *Result) ([]byte, error) {
	var err error
	b = append(b, `{"type":`...)
	b = appendString(b, r.Type)
	b = append(b, `,"schema":`...)
	b = appendString(b, r.Schema)
	b = append(b, `,"run_id":`...)
	b = appendString(b, r.RunID)
	b = append(b, `,"suite":`...)
	b = appendString(b, r.Suite)
	b = append(b, `,"benchmark":`...)
	b = appendString(b, r.Benchmark)
	b = append(b, `,"np":`...)
	b = strconv.AppendInt(b, int64(r.NP), 10)
	b = append(b, `,"groups":`...)
	b = strconv.AppendInt(b, int64(r.Groups), 10)
	b = append(b, `,"group":`...)
	b = strconv.AppendInt(b, int64(r.Group), 10)
	if r.Mode != "" {
		b = append(b, `,"mode":`...)
		b = appendString(b, r.Mode)
	}
	b = append(b, `,"bytes":`...)
	b = strconv.AppendInt(b, r.Bytes, 10)
	b = append(b, `,"repetitions":`...)
	b = strconv.AppendInt(b, int64(r.Repetitions), 10)
	b = append(b, `,"status":`...)
	b = appendString(b, r.Status)
	if r.NeededGB != 0 {
		b = append(b, `,"needed_gb":`...)
		b, err = appendFloat(b, r.NeededGB, err)
	}
	if r.Reason != "" {
		b = append(b, `,"reason":`...)
		b = appendString(b, r.Reason)
	}
	if r.Repeat != 0 {
		b = append(b, `,"repeat":`...)
		b = strconv.AppendInt(b, int64(r.Repeat), 10)
	}
	if r.LargeCount {
		b = append(b, `,"large_count":true`...)
	}
	b = append(b, `,"t_min_us":`...)
	b, err = appendFloat(b, r.TMinUS, err)
	b = append(b, `,"t_max_us":`...)
	b, err = appendFloat(b, r.TMaxUS, err)
	b = append(b, `,"t_avg_us":`...)
	b, err = appendFloat(b, r.TAvgUS, err)
	b = append(b, `,"mbytes_per_sec":`...)
	b, err = appendFloat(b, r.MBps, err)
	if r.MsgPerSec != 0 {
		b = append(b, `,"msg_per_sec":`...)
		b, err = appendFloat(b, r.MsgPerSec, err)
	}
	b = append(b, `,"locality":`...)
	b = appendString(b, r.Locality)
	b = append(b, `,"host_count":`...)
	b = strconv.AppendInt(b, int64(r.HostCount), 10)
	return appendPerRank(b, r, err)
}

// appendPerRank appends the rest of a result record: per-rank times and
// samples, then the fields that are there only sometimes.
func appendPerRank(b []byte, r *Result, err error) ([]byte, error) {
	b = append(b, `,"ranks":`...)
	if r.Ranks == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, v := range r.Ranks {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(v), 10)
		}
		b = append(b, ']')
	}
	b = append(b, `,"rank_mean_us":`...)
	b, err = appendFloats(b, r.RankMeanUS, err)
	b = append(b, `,"samples_us":`...)
	if r.SamplesUS == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, s := range r.SamplesUS {
			if i > 0 {
				b = append(b, ',')
			}
			b, err = appendFloats(b, s, err)
		}
		b = append(b, ']')
	}
	if r.SamplesKept != 0 {
		b = append(b, `,"samples_kept":`...)
		b = strconv.AppendInt(b, int64(r.SamplesKept), 10)
	}
	for _, f := range []struct {
		key string
		v   []float64
	}{{`,"rank_min_us":`, r.RankMinUS}, {`,"rank_max_us":`, r.RankMaxUS}, {`,"rank_p50_us":`, r.RankP50US}, {`,"rank_p99_us":`, r.RankP99US}} {
		if len(f.v) > 0 {
			b = append(b, f.key...)
			b, err = appendFloats(b, f.v, err)
		}
	}
	if r.SampleReps != 0 {
		b = append(b, `,"sample_reps":`...)
		b = strconv.AppendInt(b, int64(r.SampleReps), 10)
	}
	if r.Precision != nil {
		b = append(b, `,"precision":`...)
		b, err = appendFloat(b, *r.Precision, err)
	}
	for _, p := range []struct {
		key string
		v   float64
	}{{`,"p50_us":`, r.P50US}, {`,"p90_us":`, r.P90US}, {`,"p99_us":`, r.P99US}} {
		if p.v != 0 {
			b = append(b, p.key...)
			b, err = appendFloat(b, p.v, err)
		}
	}
	// Rare parts go through encoding/json itself.
	if len(r.Tail) > 0 {
		b = append(b, `,"tail":`...)
		b, err = appendMarshal(b, r.Tail, err)
	}
	if r.NBC != nil {
		b = append(b, `,"nbc":`...)
		b, err = appendMarshal(b, r.NBC, err)
	}
	if r.OneWay != nil {
		b = append(b, `,"one_way":`...)
		b, err = appendMarshal(b, r.OneWay, err)
	}
	if r.Topology != nil {
		b = append(b, `,"topology":`...)
		b, err = appendMarshal(b, r.Topology, err)
	}
	if r.Pair != nil {
		b = append(b, `,"pair":`...)
		b, err = appendMarshal(b, r.Pair, err)
	}
	if r.Congestion != nil {
		b = append(b, `,"congestion":`...)
		b, err = appendMarshal(b, r.Congestion, err)
	}
	if r.TransmitBytes != 0 {
		b = append(b, `,"transmit_bytes":`...)
		b = strconv.AppendInt(b, r.TransmitBytes, 10)
	}
	if r.Buffers != "" {
		b = append(b, `,"buffers":`...)
		b = appendString(b, r.Buffers)
	}
	if r.Staged {
		b = append(b, `,"staged":true`...)
	}
	if r.Sample != 0 {
		b = append(b, `,"sample":`...)
		b = strconv.AppendInt(b, int64(r.Sample), 10)
	}
	if r.Cold {
		b = append(b, `,"cold":true`...)
	}
	if r.Check != nil {
		b = append(b, `,"check":`...)
		b, err = appendMarshal(b, r.Check, err)
	}
	if len(r.NIC) > 0 {
		b = append(b, `,"nic":`...)
		b, err = appendMarshal(b, r.NIC, err)
	}
	b = append(b, `,"time":`...)
	n := len(b)
	b = append(b, '"')
	if t, terr := r.Time.AppendText(b); terr == nil { // MarshalJSON's text, unquoted
		b = append(t, '"')
	} else {
		b, err = appendMarshal(b[:n], r.Time, err) // and its error
	}
	return append(b, '}'), err
}

// appendString appends s quoted; what needs escaping (rare in records)
// goes through encoding/json, which escapes HTML characters, U+2028 and
// U+2029 and replaces invalid UTF-8.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' || c >= utf8.RuneSelf {
			q, _ := json.Marshal(s) // a string always encodes
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendFloat appends f as encoding/json does: no exponent from 1e-6 to
// 1e21, a short one outside. NaN and infinities are errors, as there.
func appendFloat(b []byte, f float64, err error) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		if err == nil {
			err = &json.UnsupportedValueError{Str: strconv.FormatFloat(f, 'g', -1, 64)}
		}
		return append(b, '0'), err
	}
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' { // e-07 → e-7
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, err
}

func appendFloats(b []byte, fs []float64, err error) ([]byte, error) {
	if fs == nil {
		return append(b, "null"...), err
	}
	b = append(b, '[')
	for i, f := range fs {
		if i > 0 {
			b = append(b, ',')
		}
		b, err = appendFloat(b, f, err)
	}
	return append(b, ']'), err
}

func appendMarshal(b []byte, v any, err error) ([]byte, error) {
	j, merr := json.Marshal(v)
	if merr != nil {
		if err == nil {
			err = merr
		}
		return append(b, "null"...), err
	}
	return append(b, j...), err
}
