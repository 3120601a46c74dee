package bench

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Fault injection for the watchdog's tests: GOMB_FAULT=hang:BYTES:RANK
// makes that world rank stop answering, forever, just before the timed
// loop of that size, as a rank stuck in an MPI call would (its peers then
// wait inside MPI). Unset, it costs one look at the environment.
var hang struct {
	once  sync.Once
	bytes int64
	rank  int
	on    bool
}

// HangIfAsked blocks forever when GOMB_FAULT asks this rank to hang at
// this size.
func HangIfAsked(bytes int64, rank int) {
	hang.once.Do(func() {
		f := strings.Split(os.Getenv("GOMB_FAULT"), ":")
		if len(f) != 3 || f[0] != "hang" {
			return
		}
		b, err1 := strconv.ParseInt(f[1], 10, 64)
		r, err2 := strconv.Atoi(f[2])
		hang.bytes, hang.rank, hang.on = b, r, err1 == nil && err2 == nil
	})
	if hang.on && bytes == hang.bytes && rank == hang.rank {
		for {
			time.Sleep(time.Hour)
		}
	}
}
