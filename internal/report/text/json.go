package text

import (
	"encoding/json"
	"io"
)

// WriteJSON writes v as indented JSON, the -json of compare, check and
// explain. A number that does not exist (a speed over an empty size band,
// a p-value without enough runs, a size the run lacks) is an
// analysis.Float, which writes itself as null.
func WriteJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
