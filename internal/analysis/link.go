package analysis

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gomb-hpc/gomb/result"
)

// Link is the network link rate explain measures efficiency against.
type Link struct {
	Gbps   float64 `json:"gbps"`
	Source string  `json:"source"` // "-link", or the host and link it was read from
}

// ParseLink reads a link rate given by a user, in Gb/s: "100",
// "100Gb/s", "25GbE", or in gigabytes "12.5GB/s".
func ParseLink(s string) (float64, error) {
	v, mult := strings.TrimSpace(s), 1.0
	if strings.HasSuffix(v, "GB/s") {
		v, mult = strings.TrimSuffix(v, "GB/s"), 8
	} else {
		for _, suf := range []string{"gb/s", "gbit/s", "gbps", "gbe", "g"} {
			if strings.HasSuffix(strings.ToLower(v), suf) {
				v = v[:len(v)-len(suf)]
				break
			}
		}
	}
	g, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || !(g > 0) || g > 1e5 {
		return 0, fmt.Errorf("want a rate in Gb/s (100, 200Gb/s, 25GbE, 12.5GB/s), got %q", s)
	}
	return g * mult, nil
}

// MBps is the link's rate in MB/s (10^6 bytes).
func (l Link) MBps() float64 { return l.Gbps * 1e9 / 8 / 1e6 }

// RunLink is the fastest usable link the run's hosts recorded (InfiniBand
// first, as MPI libraries prefer it); zero if none.
func RunLink(r *result.Run) Link {
	var best result.Link
	host := ""
	for _, rk := range r.Ranks {
		for _, l := range rk.Links {
			if l.State != "" && l.State != "up" && l.State != "active" {
				continue
			}
			better := l.Kind == "infiniband" && best.Kind != "infiniband" ||
				l.Kind == best.Kind && l.Gbps > best.Gbps || best.Kind == ""
			if better {
				best, host = l, rk.Host
			}
		}
	}
	if best.Gbps == 0 {
		return Link{}
	}
	return Link{Gbps: best.Gbps, Source: fmt.Sprintf("%s %s (%s)", host, best.Name, best.Kind)}
}
