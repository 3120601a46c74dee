package osu

import (
	"fmt"
	"strings"
)

// registerPersistent registers OSU's persistent twin of the blocking
// collective base (osu_<base>_persistent, OSU 7.3 on; gomb follows 7.4):
// the same test with the collective as a persistent request, made by
// init once a size over the first buffers with root 0, started and
// waited for each iteration. Its file sorts after its twin's, whose
// spec it copies.
func registerPersistent(base, init string) {
	twin, ok := Lookup(base)
	if !ok {
		panic(fmt.Sprintf("osu: %s_persistent before %s", base, base))
	}
	s := *twin
	s.Name = base + "_persistent"
	s.Title = strings.Replace(twin.Title, " Latency Test", " Persistent Latency Test", 1)
	s.Version = "7.4"
	s.Job.Persist = true
	what := " once a size"
	if twin.NoSize {
		what = " once"
	}
	s.Summary = strings.SplitN(twin.Summary, " (", 2)[0] + " as a persistent request (" + init + what + ", MPI_Start and MPI_Wait)"
	Register(&s)
}
