package archive

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func bigArchive(b *testing.B) *DB {
	b.Helper()
	if big.path == "" && big.err == nil {
		dir, err := os.MkdirTemp("", "gomb-bench-")
		if err != nil {
			b.Fatal(err)
		}
		big.path = filepath.Join(dir, "big.db")
		db, err := Open(big.path)
		if err != nil {
			b.Fatal(err)
		}
		start := time.Now()
		for i := 0; i < 10000; i++ {
			if _, _, err := db.Add(synth(i, 24)); err != nil {
				big.err = err
				break
			}
		}
		db.Close()
		b.Logf("built 10,000 runs in %v", time.Since(start).Round(time.Millisecond))
	}
	if big.err != nil {
		b.Fatal(big.err)
	}
	db, err := Open(big.path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}

func BenchmarkList(b *testing.B) {
	db := bigArchive(b)
	for _, words := range [][]string{nil, {"system=hpc4", "config=c1"}, {"last=20"}} {
		sel, _ := ParseSelector(words)
		b.Run(strings.Join(append([]string{"all"}, words...), "_"), func(b *testing.B) {
			for b.Loop() {
				runs, err := db.List(sel)
				if err != nil || len(runs) == 0 {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkHistory(b *testing.B) {
	db := bigArchive(b)
	for _, words := range [][]string{nil, {"system=hpc5"}} {
		sel, _ := ParseSelector(words)
		b.Run(strings.Join(append([]string{"all"}, words...), "_"), func(b *testing.B) {
			for b.Loop() {
				pts, err := db.History(sel, "PingPong", 1024, 2, "t_avg_us")
				if err != nil || len(pts) == 0 {
					b.Fatal(err, len(pts))
				}
			}
		})
	}
}

func BenchmarkAdd(b *testing.B) {
	db := open(b)
	i := 0
	for b.Loop() {
		if _, _, err := db.Add(synth(i, 24)); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
