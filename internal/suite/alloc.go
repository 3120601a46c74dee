package suite

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/gomb-hpc/gomb/internal/host"
	"github.com/gomb-hpc/gomb/result"
)

// Allocation is what a suite runs on: its nodes, in the scheduler's
// order, what is known of each, and of the network between them.
type Allocation struct {
	Nodes  []string
	Source string // where the nodes came from, in words
	// Facts are each node's hardware (gathered by a small job); Assumed
	// stands for a node without (when planning without the job: this
	// machine's).
	Facts   map[string]*result.Node
	Assumed *result.Node
	// Tree or Fleet say which pairs of nodes are far apart (nil: not
	// known).
	Tree  *Tree
	Fleet *Fleet
}

// FactsOf is a node's facts: its own, or the assumed ones (nil: none).
func (a *Allocation) FactsOf(host string) *result.Node {
	if f := a.Facts[host]; f != nil {
		return f
	}
	return a.Assumed
}

// SlurmNodes are the nodes of the Slurm allocation the process runs in
// (SLURM_JOB_NODELIST, or SLURM_NODELIST); nil outside one.
func SlurmNodes(getenv func(string) string) ([]string, string, error) {
	list := getenv("SLURM_JOB_NODELIST")
	name := "SLURM_JOB_NODELIST"
	if list == "" {
		list, name = getenv("SLURM_NODELIST"), "SLURM_NODELIST"
	}
	if list == "" || getenv("SLURM_JOB_ID") == "" {
		return nil, "", nil
	}
	nodes, err := result.ExpandHostlist(list)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %v", name, err)
	}
	return nodes, fmt.Sprintf("Slurm job %s (%s=%s)", getenv("SLURM_JOB_ID"), name, list), nil
}

// ParseHostfile reads a hostfile as Open MPI's mpirun and MPICH's mpiexec
// take it: a host a line ("node01", "node01 slots=4", "node01:4"), '#'
// comments; the nodes are the distinct hosts in order.
func ParseHostfile(r io.Reader, name string) ([]string, error) {
	var nodes []string
	seen := map[string]bool{}
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		line, _, _ := strings.Cut(sc.Text(), "#")
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		host, slots, hasSlots := strings.Cut(f[0], ":")
		if hasSlots {
			if k, err := strconv.Atoi(slots); err != nil || k < 1 {
				return nil, fmt.Errorf("%s:%d: %q: want HOST, HOST:SLOTS or HOST slots=N", name, n, f[0])
			}
		}
		for _, kv := range f[1:] {
			k, v, _ := strings.Cut(kv, "=")
			switch k {
			case "slots", "max_slots", "max-slots":
				if x, err := strconv.Atoi(v); err != nil || x < 1 {
					return nil, fmt.Errorf("%s:%d: %q: want %s=N", name, n, kv, k)
				}
			default:
				return nil, fmt.Errorf("%s:%d: %q: want HOST, HOST:SLOTS or HOST slots=N", name, n, kv)
			}
		}
		if host == "" {
			return nil, fmt.Errorf("%s:%d: no host name", name, n)
		}
		if !seen[host] {
			seen[host] = true
			nodes = append(nodes, host)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if len(nodes) == 0 {
		return nil, fmt.Errorf("%s: no hosts in it", name)
	}
	return nodes, nil
}

// ReadFacts reads node records (nodes.jsonl, or a facts job's output):
// one JSON object a line of type "node"; other lines are not facts and
// are left (a launcher's own messages).
func ReadFacts(r io.Reader) (map[string]*result.Node, error) {
	out := map[string]*result.Node{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<22)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "{") || !strings.Contains(line, `"type":"node"`) {
			continue
		}
		var n result.Node
		if err := json.Unmarshal([]byte(line), &n); err != nil || n.Type != result.TypeNode || n.Host == "" {
			continue
		}
		out[n.Host] = &n
	}
	return out, sc.Err()
}

// WriteFacts writes node records, one a line, in the nodes' order.
func WriteFacts(w io.Writer, nodes []string, facts map[string]*result.Node) error {
	enc := json.NewEncoder(w)
	for _, n := range nodes {
		if f := facts[n]; f != nil {
			if err := enc.Encode(f); err != nil {
				return err
			}
		}
	}
	return nil
}

// Compress writes host names as a Slurm host list: runs of names that
// differ only in a number of the same width become ranges
// ("nid[001-004,010],login1"). ExpandHostlist reads it back.
func Compress(hosts []string) string {
	type group struct {
		prefix, suffix string
		width          int
		nums           []int
	}
	var groups []*group
	at := map[string]*group{}
	var plain []string
	order := []any{}
	for _, h := range hosts {
		// the last run of digits
		end := len(h)
		for end > 0 && (h[end-1] < '0' || h[end-1] > '9') {
			end--
		}
		start := end
		for start > 0 && h[start-1] >= '0' && h[start-1] <= '9' {
			start--
		}
		if start == end || strings.ContainsAny(h, "[],") {
			plain = append(plain, h)
			order = append(order, h)
			continue
		}
		num, _ := strconv.Atoi(h[start:end])
		key := h[:start] + "\x00" + h[end:] + "\x00" + strconv.Itoa(end-start)
		g := at[key]
		if g == nil {
			g = &group{prefix: h[:start], suffix: h[end:], width: end - start}
			at[key] = g
			groups = append(groups, g)
			order = append(order, g)
		}
		g.nums = append(g.nums, num)
	}
	var parts []string
	for _, o := range order {
		g, ok := o.(*group)
		if !ok {
			parts = append(parts, o.(string))
			continue
		}
		if len(g.nums) == 1 {
			parts = append(parts, fmt.Sprintf("%s%0*d%s", g.prefix, g.width, g.nums[0], g.suffix))
			continue
		}
		nums := append([]int(nil), g.nums...)
		sort.Ints(nums)
		var ranges []string
		for i := 0; i < len(nums); {
			j := i
			for j+1 < len(nums) && nums[j+1] == nums[j]+1 {
				j++
			}
			if j == i {
				ranges = append(ranges, fmt.Sprintf("%0*d", g.width, nums[i]))
			} else {
				ranges = append(ranges, fmt.Sprintf("%0*d-%0*d", g.width, nums[i], g.width, nums[j]))
			}
			i = j + 1
		}
		parts = append(parts, g.prefix+"["+strings.Join(ranges, ",")+"]"+g.suffix)
	}
	_ = plain
	return strings.Join(parts, ",")
}

// ThisNode is this machine's hardware, under the name the allocation
// gives it.
func ThisNode() *result.Node {
	n := host.Facts("/sys", host.NodeName())
	return &n
}

// WriteThisNode writes this machine's hardware as a node record: what the
// facts job (gomb suite facts) prints on every node.
func WriteThisNode(w io.Writer) error {
	n := ThisNode()
	return WriteFacts(w, []string{n.Host}, map[string]*result.Node{n.Host: n})
}

// UseFacts gives a the node facts to plan with: the file path's (-facts),
// else dir's (a run's nodes.jsonl) where there is one, else this
// machine's, standing for every node.
func (a *Allocation) UseFacts(path, dir string) error {
	if path == "" && dir != "" {
		if _, err := os.Stat(filepath.Join(dir, FactsFile)); err == nil {
			path = filepath.Join(dir, FactsFile)
		}
	}
	if path == "" {
		a.Assumed = ThisNode()
		return nil
	}
	facts, err := ReadFactsFile(path)
	if err != nil {
		return err
	}
	a.Facts = facts
	return nil
}

// ReadFactsFile reads a nodes.jsonl file.
func ReadFactsFile(path string) (map[string]*result.Node, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadFacts(f)
}

// expandHostlist is result.ExpandHostlist (Slurm's host list syntax).
func expandHostlist(list string) ([]string, error) { return result.ExpandHostlist(list) }
