package imb

import (
	"fmt"
	"strings"

	"github.com/gomb-hpc/gomb/internal/kernel"
)

// Policy is IMB's -iter_policy.
type Policy int

// The repetition policies.
const (
	PolicyDynamic    Policy = iota // estimate per size, cap by -time (IMB default)
	PolicyOff                      // exactly msgspersample repetitions
	PolicyMultipleNP               // hyperbola in the size, a multiple of np
	PolicyAuto                     // multiple_np for rooted benchmarks, dynamic otherwise
	// PolicyPrecision (gomb's own): repetitions in growing batches until
	// the 95% confidence interval of every timing rank's median
	// repetition time is within Options.Precision, at most IMB's count.
	PolicyPrecision
)

var policyNames = []string{"dynamic", "off", "multiple_np", "auto", "precision"}

func (p Policy) String() string {
	if p < 0 || int(p) >= len(policyNames) {
		return fmt.Sprintf("Policy(%d)", int(p))
	}
	return policyNames[p]
}

// MarshalText writes the policy's name.
func (p Policy) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText reads a policy name.
func (p *Policy) UnmarshalText(b []byte) error {
	v, err := ParsePolicy(string(b))
	*p = v
	return err
}

// ParsePolicy reads an -iter_policy value.
func ParsePolicy(s string) (Policy, error) {
	for i, n := range policyNames {
		if strings.EqualFold(s, n) {
			return Policy(i), nil
		}
	}
	return 0, fmt.Errorf("unknown -iter_policy %q (want dynamic, off, multiple_np, auto or precision)", s)
}

// Options are IMB-MPI1's run options, parsed from its flags. Units are in
// the field names or comments.
type Options struct {
	// Suite is the IMB suite the run's benchmarks are from: "" for
	// IMB-MPI1 (Suite), SuiteNBC for IMB-NBC.
	Suite string `json:"suite,omitempty"`
	NPMin int    `json:"npmin"`
	// Multi is -multi: -1 off, 0 (one line over all groups), 1 (a line per group).
	Multi int `json:"multi"`
	// OffCache: -off_cache CacheMB[,CacheLine]; CacheMB in MiB, CacheLine in bytes.
	OffCache  bool    `json:"off_cache"`
	CacheMB   float64 `json:"cache_mb,omitempty"`
	CacheLine int     `json:"cache_line,omitempty"`
	// -iter msgspersample,overall_vol(MiB),msgs_nonaggr
	MsgsPerSample int    `json:"msgs_per_sample"`
	OverallVolMiB int    `json:"overall_vol_mib"`
	MsgsNonAggr   int    `json:"msgs_nonaggr"`
	Policy        Policy `json:"iter_policy"`
	// TimeS is -time: the per-size time target and the time-out base, seconds.
	TimeS float64 `json:"time_s"`
	// MemGB is -mem: buffer memory per process, GiB.
	MemGB float64 `json:"mem_gb"`
	// Sizes is the user's size list (-msglen, -msgsize); nil: powers of two.
	Sizes     []int64 `json:"sizes,omitempty"`
	MsgLogMin int     `json:"msglog_min"`
	MsgLogMax int     `json:"msglog_max"`
	// MapP, MapQ: -map PxQ (0: none).
	MapP int `json:"map_p,omitempty"`
	MapQ int `json:"map_q,omitempty"`
	// Switches.
	RootShift  bool `json:"root_shift"`
	Sync       bool `json:"sync"`
	IMBBarrier bool `json:"imb_barrier"`
	ZeroSize   bool `json:"zero_size"`
	WarmUp     bool `json:"warm_up"`
	MsgPause   bool `json:"msg_pause"`
	// Element types of normal and reduction benchmarks.
	Type    kernel.Datatype `json:"data_type"`
	RedType kernel.Datatype `json:"red_data_type"`
	// Window is -window_size (Uniband, Biband).
	Window int `json:"window_size"`
	// AggregateMode is -aggregate_mode of IMB-EXT and IMB-RMA: the one
	// mode (result.ModeAggregate, result.ModeNonAggregate) the benchmarks
	// that have two run in; "": both (IMB's multi).
	AggregateMode string `json:"aggregate_mode,omitempty"`
	// IODir is the directory of IMB-IO's files (IMB_out, IMB_out_<rank>),
	// as every rank names it.
	IODir string `json:"io_dir,omitempty"`
	// Check validates every received buffer after each size.
	Check bool `json:"check"`
	// NoSamples is -samples off: no per-repetition samples, so the
	// loop-timed kernels run IMB's loop exactly (no cycle-counter stamp per
	// repetition); records then carry each rank's mean only.
	NoSamples bool `json:"no_samples,omitempty"`
	// AllSamples is -samples all: every timing rank's samples, however
	// many ranks; without it (-samples auto) a record above
	// bench.AutoSampleRanks timing ranks keeps a bounded set's and every
	// rank's summary.
	AllSamples bool `json:"all_samples,omitempty"`
	// NIC is -nic: every active rank reads its host's interface counters
	// around each size's timed loop, and the result records say what each
	// interface carried (one more gather a size, rank 0's).
	NIC bool `json:"nic,omitempty"`
	// Precision is -precision, the target of -iter_policy precision: the
	// half-width of the median's 95% confidence interval relative to the
	// median (0.01: ±1%).
	Precision float64 `json:"precision,omitempty"`
	// Buffers is how message buffers are allocated: IMB's own scheme by
	// default (MPI_Alloc_mem per size), page-aligned with -buffers page.
	Buffers kernel.Buffers `json:"buffers"`
}

// SuiteName is the registry name of the run's suite.
func (o *Options) SuiteName() string {
	if o.Suite == "" {
		return Suite
	}
	return o.Suite
}

// DefaultOptions returns IMB-MPI1's defaults.
func DefaultOptions() Options {
	return Options{
		NPMin:         2,
		Multi:         -1,
		MsgsPerSample: 1000,
		OverallVolMiB: 40,
		MsgsNonAggr:   100,
		Policy:        PolicyDynamic,
		TimeS:         10,
		MemGB:         1.0,
		MsgLogMin:     0,
		MsgLogMax:     22,
		Sync:          true,
		ZeroSize:      true,
		WarmUp:        true,
		Type:          kernel.Byte,
		RedType:       kernel.Float,
		Window:        256,
		Buffers:       kernel.BuffersIMB,
		Precision:     DefaultPrecision,
	}
}

// DefaultPrecision is -precision's default: ±2%, about what IMB's default
// repetition counts give a median on a quiet node (gomb's records carry the
// precision every size reached, whatever the policy).
const DefaultPrecision = 0.02

// Validate checks option values that do not depend on the rank count.
func (o *Options) Validate() error {
	switch {
	case o.NPMin <= 0:
		return fmt.Errorf("-npmin must be a positive integer, got %d", o.NPMin)
	case o.Multi < -1 || o.Multi > 1:
		return fmt.Errorf("-multi must be 0 or 1, got %d", o.Multi)
	case o.MsgsPerSample <= 0:
		return fmt.Errorf("-iter: msgspersample must be positive, got %d", o.MsgsPerSample)
	case o.OverallVolMiB <= 0:
		return fmt.Errorf("-iter: overall_vol must be positive, got %d", o.OverallVolMiB)
	case o.MsgsNonAggr <= 0:
		return fmt.Errorf("-iter: msgs_nonaggr must be positive, got %d", o.MsgsNonAggr)
	case !(o.TimeS > 0):
		return fmt.Errorf("-time must be a positive number of seconds, got %g", o.TimeS)
	case !(o.MemGB > 0):
		return fmt.Errorf("-mem must be a positive number of GB, got %g", o.MemGB)
	case o.MsgLogMin < 0 || o.MsgLogMax > MaxMsgLog || o.MsgLogMin > o.MsgLogMax:
		return fmt.Errorf("-msglog %d:%d: want 0 <= min <= max <= %d", o.MsgLogMin, o.MsgLogMax, MaxMsgLog)
	case o.Policy == PolicyPrecision && o.NoSamples:
		return fmt.Errorf("-iter_policy precision stops on the samples: it needs -samples on")
	case o.Policy == PolicyPrecision && !(o.Precision > 0 && o.Precision < 1):
		return fmt.Errorf("-precision must be above 0 and below 100%%, got %g", o.Precision)
	case o.Window <= 0 || o.Window > 1<<20:
		return fmt.Errorf("-window_size must be between 1 and 1048576, got %d", o.Window)
	case o.OffCache && (!(o.CacheMB > 0) || o.CacheLine <= 0):
		return fmt.Errorf("-off_cache: cache size must be positive MB and line size positive bytes")
	case (o.MapP > 0) != (o.MapQ > 0):
		return fmt.Errorf("-map: want PxQ with both P and Q positive")
	}
	for _, s := range o.Sizes {
		if s < 0 {
			return fmt.Errorf("negative message length %d", s)
		}
	}
	return nil
}

// ValidateWorld checks the options against the number of ranks started.
func (o *Options) ValidateWorld(world int) error {
	if o.NPMin > world {
		return fmt.Errorf("-npmin %d is larger than the %d processes started", o.NPMin, world)
	}
	if o.MapP > 0 && o.MapP*o.MapQ > world {
		return fmt.Errorf("-map %dx%d needs %d processes, only %d started", o.MapP, o.MapQ, o.MapP*o.MapQ, world)
	}
	return nil
}

// Unit is the element size of a benchmark's messages in bytes.
func (o *Options) Unit(s *Spec) int64 {
	if s.Reduction {
		return int64(o.RedType.Size())
	}
	return int64(o.Type.Size())
}

// ElemType is the element type of a benchmark's messages.
func (o *Options) ElemType(s *Spec) kernel.Datatype {
	if s.Reduction {
		return o.RedType
	}
	return o.Type
}
