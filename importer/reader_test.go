package importer

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gomb-hpc/gomb/result"
)

// importInputs are real logs of several formats, many runs among them.
var importInputs = []string{
	"testdata/imb2019_np2_twice.txt",
	"testdata/osu5_latency.txt",
	"testdata/imb_np2_p2p_coll.txt",
	"testdata/imb-fabric-comparison-blog.txt",
}

// sequential is what the files hold, read one run after the other.
func sequential(t *testing.T, files []string) (names []string, runs []*result.Bundle) {
	t.Helper()
	for _, f := range files {
		file, err := ImportFile(f, f, Options{}, func(r *result.Bundle) error {
			names, runs = append(names, f), append(runs, r)
			return nil
		})
		if err != nil || file.Count == 0 {
			t.Fatalf("%s: %v, %d runs", f, err, file.Count)
		}
	}
	return names, runs
}

// readRuns reads files with a Reader as gomb import does, counting the
// runs and results each stepped to, and the ends of files.
func readRuns(r *Reader, each func(name string, run *result.Bundle, prep any) error) (runs, results, ends int, err error) {
	defer r.Close()
	for r.Scan() {
		run := r.Run()
		if run == nil {
			ends++
			if r.FileErr() != nil || len(r.File().Problems) > 0 {
				return runs, results, ends, fmt.Errorf("%s: %v %v", r.Name(), r.FileErr(), r.File().Problems)
			}
			continue
		}
		if err := each(r.Name(), run, r.Prepared()); err != nil {
			return runs, results, ends, err
		}
		runs++
		results += len(run.Results)
	}
	return runs, results, ends, r.Err()
}

// TestReaderInOrder: reading ahead on another goroutine hands every run
// on, in file order, with Prepare's result, and ends every file.
func TestReaderInOrder(t *testing.T) {
	wantNames, want := sequential(t, importInputs)
	var got []string
	r := NewReader(importInputs, Options{})
	r.Prepare = func(r *result.Bundle) (any, error) { return r.Run.RunID + "/" + fmt.Sprint(len(r.Results)), nil }
	runs, results, ends, err := readRuns(r, func(name string, r *result.Bundle, prep any) error {
		if prep != r.Run.RunID+"/"+fmt.Sprint(len(r.Results)) {
			t.Errorf("prep %q came with run %s", prep, r.Run.RunID)
		}
		got = append(got, name+" "+r.Run.RunID)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if ends != len(importInputs) {
		t.Errorf("%d ends of files, want %d", ends, len(importInputs))
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

// TestReaderStops: an error of Prepare, or a caller that stops reading,
// ends the import with that error; the runs before it are counted, none
// after it is handed on.
func TestReaderStops(t *testing.T) {
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
				r := NewReader(files, Options{})
				r.Prepare = func(r *result.Bundle) (any, error) {
					if prepped++; where == "prep" && prepped == at+1 {
						return 0, boom
					}
					return prepped, nil
				}
				runs, _, _, err := readRuns(r, func(_ string, _ *result.Bundle, n any) error {
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
			})
		}
	}
}
