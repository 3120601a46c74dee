package result

import (
	"encoding/json"
	"io"
)

// Bundle is one run's records: its run record, its results and, when the
// run ended (gomb records), its end record. It is what every stage after a
// measurement passes on: import, the archive, the analyses.
type Bundle struct {
	Run     *Run
	Results []*Result
	End     *End
}

// RecordsFormat is Source.Format of runs read back from gomb's own record
// files (imported logs name their format: "imb", "osu", "ring").
const RecordsFormat = "gomb"

// Encode writes the bundle as records: run, results, and the end record if
// it has one.
func (b *Bundle) Encode(w io.Writer) error {
	enc := NewEncoder(w) // one per bundle: End closes it
	if err := enc.Run(b.Run); err != nil {
		return err
	}
	for _, x := range b.Results {
		if err := enc.Result(x); err != nil {
			return err
		}
	}
	if b.End != nil {
		end := *b.End
		return enc.End(&end)
	}
	return nil
}

// DecodeOptions fills dst (a suite's options) from the run's stored
// Options, as gomb wrote them (in memory or read back from JSON); false
// for runs without (imported logs).
func (r *Run) DecodeOptions(dst any) bool {
	if r == nil || r.Options == nil {
		return false
	}
	js, err := json.Marshal(r.Options)
	return err == nil && json.Unmarshal(js, dst) == nil
}
