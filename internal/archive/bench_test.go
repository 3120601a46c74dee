package archive

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gomb-hpc/gomb/internal/pgtest"
)

// benchBackends are the back ends the benchmarks compare: an SQLite file,
// and PostgreSQL on a test server of its own with the server's default
// durability (fsync on, synchronous commit), over its Unix socket.
func benchBackends(b *testing.B) []backend {
	bs := []backend{{"sqlite", func(t testing.TB) string {
		dir, err := os.MkdirTemp("", "gomb-bench-")
		if err != nil {
			t.Fatal(err)
		}
		return filepath.Join(dir, "big.db")
	}}}
	if _, err := pgtest.Bin(); err == nil {
		bs = append(bs, backend{"postgres", func(t testing.TB) string { return pgArchive(t) }})
	}
	return bs
}

// big are the archives of 10,000 runs of 24 sizes each (240,000 results)
// the query benchmarks read, one a back end, built once.
var big = map[string]*bigArchive{}

type bigArchive struct {
	name string
	err  error
}

func bigOf(b *testing.B, be backend) *DB {
	b.Helper()
	a := big[be.name]
	if a == nil {
		a = &bigArchive{name: be.new(b)}
		big[be.name] = a
		db, err := Open(a.name)
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		batch := db.Batch()
		for i := 0; i < 10000; i++ {
			if _, _, err := batch.Add(synth(i, 24)); err != nil {
				a.err = err
				break
			}
		}
		if err := batch.Commit(); err != nil && a.err == nil {
			a.err = err
		}
		db.Close()
		b.Logf("%s: built 10,000 runs in %v", be.name, time.Since(start).Round(time.Millisecond))
	}
	if a.err != nil {
		b.Fatal(a.err)
	}
	db, err := Open(a.name)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}

func BenchmarkList(b *testing.B) {
	for _, be := range benchBackends(b) {
		db := bigOf(b, be)
		for _, words := range [][]string{nil, {"system=hpc4", "config=c1"}, {"last=20"}} {
			sel, _ := ParseSelector(words)
			b.Run(be.name+"/"+strings.Join(append([]string{"all"}, words...), "_"), func(b *testing.B) {
				for b.Loop() {
					runs, err := db.List(sel)
					if err != nil || len(runs) == 0 {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func BenchmarkHistory(b *testing.B) {
	for _, be := range benchBackends(b) {
		db := bigOf(b, be)
		for _, words := range [][]string{nil, {"system=hpc5"}} {
			sel, _ := ParseSelector(words)
			b.Run(be.name+"/"+strings.Join(append([]string{"all"}, words...), "_"), func(b *testing.B) {
				for b.Loop() {
					pts, err := db.History(sel, "PingPong", 1024, 2, "t_avg_us")
					if err != nil || len(pts) == 0 {
						b.Fatal(err, len(pts))
					}
				}
			})
		}
	}
}

// BenchmarkAdd adds a run of 24 results, one transaction each, to an
// archive that holds 10,000 runs already.
func BenchmarkAdd(b *testing.B) {
	for _, be := range benchBackends(b) {
		db := bigOf(b, be)
		b.Run(be.name, func(b *testing.B) {
			i := 1000000
			for b.Loop() {
				if _, _, err := db.Add(synth(i, 24)); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}
