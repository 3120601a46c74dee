package analysis

import (
	"fmt"
	"strings"

	"github.com/gomb-hpc/gomb/result"
)

// evidence is what a run says, beside its numbers, of where its ranks ran
// and what carried their messages, each fact with where it was read: the
// rank→host map of gomb's own records, the launch line and provider lines
// an imported log kept (importer: Source.Meta "nodes", "nodes_from",
// "fabric", "fabric_from"), the run's environment and its hosts' links.
// The fabric rule states these first and reads the latency against them;
// latency alone names the classes it fits and asserts nothing.
type evidence struct {
	loc, locFrom           string // result.IntraNode/InterNode/Mixed, "" unknown
	provider, providerFrom string // a key of providerClass, "" none named
}

// providerClass: the fabric class of each transport a run can name, with
// the words a finding says it in.
var providerClass = map[string]struct{ class, name string }{
	"efa":     {ClassEFA, "AWS EFA (SRD)"},
	"cxi":     {ClassRDMA, "HPE Slingshot-11 (CXI)"},
	"verbs":   {ClassRDMA, "RDMA verbs (InfiniBand or RoCE)"},
	"mlx":     {ClassRDMA, "InfiniBand (Intel MPI's mlx provider)"},
	"ucx":     {ClassRDMA, "UCX (InfiniBand or RoCE)"},
	"psm2":    {ClassRDMA, "Omni-Path (PSM2)"},
	"opx":     {ClassRDMA, "Omni-Path (OPX)"},
	"psm3":    {ClassRDMA, "RoCE or Ethernet (PSM3)"},
	"tcp":     {ClassTCP, "TCP"},
	"sockets": {ClassTCP, "TCP (sockets provider)"},
	"shm":     {ClassShm, "shared memory"},
	"tofu":    {ClassRDMA, "Fujitsu Tofu interconnect D (Tofu-D)"},
}

// gatherEvidence reads a run's evidence. loc is the locality its results
// carry (Locality); an imported log's comes from its launch line or the
// user's -locality, a record's from the rank→host map.
func gatherEvidence(r *result.Bundle, loc string) evidence {
	e := evidence{loc: loc}
	run := r.Run
	meta := map[string]string{}
	imported := false
	if run.Source != nil {
		meta = run.Source.Meta
		imported = run.Source.Format != result.RecordsFormat
	}
	switch {
	case loc == "":
	case !imported:
		e.locFrom = fmt.Sprintf("the run's rank→host map (%d host(s))", max(1, len(run.Hosts)))
	case meta["nodes_from"] != "":
		e.locFrom = fmt.Sprintf("the launch line (%s)", meta["nodes_from"])
	default:
		e.locFrom = "the import's launch line or -locality"
	}
	if p := strings.ToLower(meta["fabric"]); providerClass[p].class != "" {
		e.provider, e.providerFrom = p, fmt.Sprintf("the log: %q", meta["fabric_from"])
	}
	for _, k := range []string{"FI_PROVIDER", "I_MPI_OFI_PROVIDER"} {
		if p := strings.ToLower(strings.TrimSpace(run.Env[k])); e.provider == "" && providerClass[p].class != "" {
			e.provider, e.providerFrom = p, fmt.Sprintf("%s=%s in the run's environment", k, run.Env[k])
		}
	}
	for _, rk := range run.Ranks {
		for _, l := range rk.Links {
			if e.provider == "" && strings.HasPrefix(l.Name, "efa") && l.State != "down" {
				e.provider, e.providerFrom = "efa", fmt.Sprintf("the host %s has EFA device %s", rk.Host, l.Name)
			}
		}
	}
	return e
}
