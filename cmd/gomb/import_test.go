package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/gomb-hpc/gomb/importer"
	"github.com/gomb-hpc/gomb/result"
)

// importInputs are real logs of several formats, many runs among them.
var importInputs = []string{
	"../../importer/testdata/imb2019_np2_twice.txt",
	"../../importer/testdata/osu5_latency.txt",
	"../../importer/testdata/imb_np2_p2p_coll.txt",
	"../../importer/testdata/imb-fabric-comparison-blog.txt",
}

// sequential is what the files hold, read one run after the other.
func sequential(t *testing.T, files []string) (names []string, runs []*result.Bundle) {
	t.Helper()
	for _, f := range files {
		file, err := importer.ImportFile(f, f, importer.Options{}, func(r *result.Bundle) error {
			names, runs = append(names, f), append(runs, r)
			return nil
		})
		if err != nil || file.Count == 0 {
			t.Fatalf("%s: %v, %d runs", f, err, file.Count)
		}
	}
	return names, runs
}

// TestImportFilesInOrder: reading ahead on another goroutine hands every
// run to each, in file order, with prep's result, and counts them.
func TestImportFilesInOrder(t *testing.T) {
	wantNames, want := sequential(t, importInputs)
	var got []string
	runs, results, err := importFiles(io.Discard, importInputs, importer.Options{},
		func(r *result.Bundle) (string, error) { return r.Run.RunID + "/" + fmt.Sprint(len(r.Results)), nil },
		func(name string, r *result.Bundle, prep string) error {
			if prep != r.Run.RunID+"/"+fmt.Sprint(len(r.Results)) {
				t.Errorf("prep %q came with run %s", prep, r.Run.RunID)
			}
			got = append(got, name+" "+r.Run.RunID)
			return nil
		})
	if err != nil {
		t.Fatal(err)
	}
	nres := 0
	for i, r := range want {
		nres += len(r.Results)
		if i < len(got) && got[i] != wantNames[i]+" "+r.Run.RunID {
			t.Errorf("run %d: got %s, want %s %s", i, got[i], wantNames[i], r.Run.RunID)
		}
	}
	if len(got) != len(want) || runs != len(want) || results != nres {
		t.Errorf("each saw %d runs, counted %d runs %d results; want %d runs %d results", len(got), runs, results, len(want), nres)
	}
}

// TestImportFilesStops: an error of prep or of each ends the import with
// that error; the runs before it are counted, none after it is handed on.
func TestImportFilesStops(t *testing.T) {
	var files []string // more runs than a batch
	for range 8 {
		files = append(files, importInputs...)
	}
	_, want := sequential(t, files)
	if len(want) < 40 {
		t.Fatalf("want more runs than a batch: %d", len(want))
	}
	boom := errors.New("boom")
	for _, at := range []int{0, 1, 33, len(want) - 1} {
		for _, where := range []string{"prep", "each"} {
			t.Run(fmt.Sprint(where, at), func(t *testing.T) {
				prepped, seen := 0, 0
				var stderr strings.Builder
				runs, _, err := importFiles(&stderr, files, importer.Options{},
					func(r *result.Bundle) (int, error) {
						if prepped++; where == "prep" && prepped == at+1 {
							return 0, boom
						}
						return prepped, nil
					},
					func(_ string, _ *result.Bundle, n int) error {
						if seen++; n != seen {
							t.Errorf("run %d came with prep of run %d", seen, n)
						}
						if where == "each" && seen == at+1 {
							return boom
						}
						return nil
					})
				if !errors.Is(err, boom) || runs != at {
					t.Errorf("err %v, %d runs counted; want boom after %d", err, runs, at)
				}
				if where == "prep" && seen != at || where == "each" && seen != at+1 {
					t.Errorf("each called %d times", seen)
				}
				if stderr.Len() > 0 {
					t.Errorf("stderr: %s", stderr.String())
				}
			})
		}
	}
}
