package analysis

import "github.com/gomb-hpc/gomb/result"

// Float is a number of an analysis that may have no value (see
// result.Float): its JSON is null then.
type Float = result.Float

var floats = result.Floats
