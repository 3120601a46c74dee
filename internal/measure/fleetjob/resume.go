package fleetjob

import (
	"encoding/json"
	"fmt"

	"github.com/gomb-hpc/gomb/importer"
	"github.com/gomb-hpc/gomb/internal/bench/fleet"
	"github.com/gomb-hpc/gomb/result"
)

// resumed is what rank 0 read of the sweep -resume names: the pairs it
// measured (every rank plans without them) and, on rank 0, their rows.
type resumed struct {
	Err  string       `json:"err,omitempty"`
	From string       `json:"from,omitempty"` // its run id
	Done []fleet.Done `json:"done,omitempty"`
	rows []*result.Result
}

// readResume reads the records at path: one gomb fleet run of the same
// nodes, measured with the same flags as opt; its pairs measured both ways
// (a latency and a bandwidth row) are done.
func readResume(path string, nodes []fleet.Node, opt fleet.Options) (r resumed) {
	var runs []*result.Bundle
	_, err := importer.ImportFile(path, path, importer.Options{}, func(b *result.Bundle) error {
		runs = append(runs, b)
		return nil
	})
	if err != nil {
		r.Err = fmt.Sprintf("-resume %s: %v", path, err)
		return r
	}
	var run *result.Bundle
	for _, b := range runs {
		if b.Run != nil && b.Run.Suite == fleet.Suite {
			if run != nil {
				r.Err = fmt.Sprintf("-resume %s: it holds several gomb fleet runs; give one", path)
				return r
			}
			run = b
		}
	}
	if run == nil {
		r.Err = fmt.Sprintf("-resume %s: no gomb fleet run in it", path)
		return r
	}
	var was fleet.Options
	if !run.Run.DecodeOptions(&was) || !was.Measures(opt) {
		a, _ := json.Marshal(was)
		b, _ := json.Marshal(opt)
		r.Err = fmt.Sprintf("-resume %s: its sweep ran with other flags (%s; this one %s): resume with the same", path, a, b)
		return r
	}
	if why := otherNodes(fleet.NodesOf(run.Run.RankHosts(), opt.ByRank), nodes); why != "" {
		r.Err = fmt.Sprintf("-resume %s: %s: resume on the same nodes", path, why)
		return r
	}
	known := map[string]bool{}
	for _, n := range nodes {
		known[n.Host] = true
	}
	// each pair's row of each measurement once: a file that holds the
	// same run twice (cat a.jsonl a.jsonl) holds every row twice
	type row struct {
		bench string
		done  fleet.Done
	}
	var rows []*result.Result
	seen := map[row]bool{}
	halves := map[fleet.Done]int{} // 1: latency, 2: bandwidth
	for _, x := range run.Results {
		if x.Pair == nil || x.Status != result.StatusOK || seen[row{x.Benchmark, fleet.DoneOf(x.Pair)}] {
			continue
		}
		d := fleet.DoneOf(x.Pair)
		if !known[d.NodeA] || !known[d.NodeB] {
			r.Err = fmt.Sprintf("-resume %s: its sweep measured node %s or %s, which this job does not have: resume on the same nodes", path, d.NodeA, d.NodeB)
			return r
		}
		seen[row{x.Benchmark, d}] = true
		rows = append(rows, x)
		switch x.Benchmark {
		case fleet.Latency:
			halves[d] |= 1
		case fleet.Bandwidth:
			halves[d] |= 2
		}
	}
	for _, x := range rows {
		if halves[fleet.DoneOf(x.Pair)] == 3 {
			r.rows = append(r.rows, x)
		}
	}
	for d, h := range halves {
		if h == 3 {
			r.Done = append(r.Done, d)
		}
	}
	r.From = run.Run.RunID
	return r
}

// otherNodes says how the nodes of the sweep resumed (was) differ from
// this job's (now); "" when they are the same: a sweep of other nodes
// is another sweep, its pairs and rounds not this one's.
func otherNodes(was, now []fleet.Node) string {
	in := func(ns []fleet.Node) map[string]bool {
		m := map[string]bool{}
		for _, n := range ns {
			m[n.Host] = true
		}
		return m
	}
	old, cur := in(was), in(now)
	for _, n := range now {
		if !old[n.Host] {
			return fmt.Sprintf("its sweep ran on %d nodes, this job on %d, and node %s was not one of them", len(was), len(now), n.Host)
		}
	}
	for _, n := range was {
		if !cur[n.Host] {
			return fmt.Sprintf("its sweep ran on %d nodes, this job on %d, and its node %s is not in this job", len(was), len(now), n.Host)
		}
	}
	return ""
}
