package analysis

// Thresholds are every number explain's rules judge a run by, in one
// place, each with what it means. DefaultThresholds are gomb's;
// ExplainOptions.Thresholds replaces them (a zero value: the defaults).
type Thresholds struct {
	// variability: the slowest rank took more than SpreadRatio times as
	// long as the fastest, and at least SpreadMinUS; a WARNING from
	// SpreadMinSizes sizes on, or at one size where the ranks share a node
	// and the slowest lost SpreadOneUS or more to the fastest (the seed's
	// red flag: t_max > 3× t_min suggests contention). One size alone
	// below that is the healthy corpus' noise: 3.1-3.8× at single small
	// sizes, the slowest rank 1.7-2.2 µs behind.
	SpreadRatio    float64 `json:"spread_ratio"`
	SpreadMinUS    float64 `json:"spread_min_us"`
	SpreadMinSizes int     `json:"spread_min_sizes"`
	SpreadOneUS    float64 `json:"spread_one_us"`

	// bimodal: a rank's samples (at least BimodalMinSamples) fall into two
	// groups, the smaller holding at least BimodalMinShare of them, their
	// centres at least BimodalSeparation times apart; a WARNING when that
	// holds at BimodalWarnShare of the sizes or more.
	BimodalMinSamples int     `json:"bimodal_min_samples"`
	BimodalMinShare   float64 `json:"bimodal_min_share"`
	BimodalSeparation float64 `json:"bimodal_separation"`
	BimodalWarnShare  float64 `json:"bimodal_warn_share"`
	// BimodalMinGapUS: centres closer than this are the clock's own steps
	// (the healthy corpus' Reduce_local splits into 0.04 and 0.15 µs at
	// every small size: MPI_Wtime's granularity on a VM), not two paths.
	BimodalMinGapUS float64 `json:"bimodal_min_gap_us"`

	// cliff (time): the time at a size exceeds what the extra bytes cost
	// (at the series' best bandwidth, or at the growth of the step before)
	// by CliffTimeRatio and by CliffTimeMinUS at least, and the larger
	// sizes (one at least) stay at CliffStay of it or more without ever
	// regaining the bandwidth of the size before the step (a step they
	// regain, CliffRegain times over, is a protocol switch: the corpus'
	// switches regain 1.33× (VMI InfiniBand) and more). Steps under 1 µs
	// are what shared-memory paths do between small sizes in the healthy
	// corpus.
	CliffTimeRatio float64 `json:"cliff_time_ratio"`
	CliffTimeMinUS float64 `json:"cliff_time_min_us"`
	CliffStay      float64 `json:"cliff_stay"`
	CliffRegain    float64 `json:"cliff_regain"`
	// Below CliffBWMinBytes any larger size regains a small message's
	// bandwidth: there a step counts as regained only up to
	// CliffSmallRegain times the time (the corpus' small-size switches,
	// an eager path's next buffer: ×1.5-2.2; a ring allreduce taking over
	// at 8 elements on 8 TCP nodes, ×6.2 and flat for a decade of sizes,
	// is the held-out log's cliff).
	CliffSmallRegain float64 `json:"cliff_small_regain"`
	// A step at the same sizes in CliffShared series or more is the
	// MPI's switch, not a cliff of each — up to SwitchMaxStep times the
	// time for twice the bytes: a rendezvous costs a round trip or two
	// more (the seeds' switches: ×1.5-2.9; TCP between the testbed's hosts ×7.5; a non-blocking gather's rendezvous on shared memory without asynchronous progress ×10.8, on a field log), a step of ×13-45 (IMB-EXT's
	// one-sided operations on a field log) is a slow path, whatever many
	// benchmarks share it.
	CliffShared   int     `json:"cliff_shared"`
	SwitchMaxStep float64 `json:"switch_max_step"`
	// A collective's step of BigStep times the time or more for at most
	// twice the bytes (BigStepGPU with messages in GPU memory) is never
	// the MPI's expected switch: at thousands of ranks the held-out logs
	// step ×10-×53 in Scatter, Allgather(v) and Bcast, and an Allreduce
	// on GPU buffers ×6.9, the finding of each log. It is a protocol's
	// only where it adds no more than BigStepP2P messages of the run's
	// ping-pong a stage of the collective's tree (⌈log2 np⌉ stages) and at
	// most BigStepMinUS at all (MPICH's healthy Gather of 2 ranks on
	// shared memory: ×10.7, 0.5 to 5.3 µs at 16 KiB, its rendezvous).
	BigStep      float64 `json:"big_step"`
	BigStepGPU   float64 `json:"big_step_gpu"`
	BigStepP2P   float64 `json:"big_step_p2p"`
	BigStepMinUS float64 `json:"big_step_min_us"`
	// Within a node, a step from CliffCacheBytes on is the caches running
	// out (INFO): the healthy corpus steps at 1-2 MiB (Alltoallv).
	CliffCacheBytes int64 `json:"cliff_cache_bytes"`
	// cliff (bandwidth): bandwidth falls below CliffBWDrop of the size
	// before (from CliffBWMinBytes on) and stays below CliffBWStay of it.
	CliffBWDrop     float64 `json:"cliff_bw_drop"`
	CliffBWMinBytes int64   `json:"cliff_bw_min_bytes"`
	CliffBWStay     float64 `json:"cliff_bw_stay"`

	// bandwidth fall: a bandwidth series ends FallBW or more below its
	// peak (from CliffBWMinBytes on), the size before it FallBW/2; a
	// process count's peak FallBW below a smaller count's.
	FallBW float64 `json:"fall_bw"`

	// inversions: a size InversionRatio times slower than a larger size,
	// and InversionMinUS more (a few µs between small sizes is what a
	// busy node does: 4 against 2 µs in the field corpus' shared-memory
	// sweep).
	InversionRatio float64 `json:"inversion_ratio"`
	InversionMinUS float64 `json:"inversion_min_us"`
	// A WARNING where InversionSizes sizes or more are, the worst
	// InversionWorst times slower than a larger size, in two series of the
	// run or more.
	InversionSizes int     `json:"inversion_sizes"`
	InversionWorst float64 `json:"inversion_worst"`

	// modes: IMB-EXT's aggregate mode ModesRatio times slower than
	// non-aggregate (and CliffTimeMinUS) at two sizes or more.
	ModesRatio float64 `json:"modes_ratio"`

	// siblings (benchmarks built on the same transfers, compared by what
	// each rank sends per µs, from SiblingMinBytes on): a step of one
	// that none of the others shares is its own cliff (not the MPI's
	// switch) when its rate stands at SiblingStep of its standing before
	// the step or less against every sibling (the median of SiblingSizes
	// sizes or more), and below SiblingStay of it at each; a rate at SiblingFar of every sibling's or less, from some
	// size to the largest (SiblingSizes sizes), is a WARNING. The healthy
	// corpus (both MPIs, np 2, shared memory and TCP) stands at 0.31-1.26
	// of PingPong's rate at single sizes and 0.57 over the largest ones
	// (Exchange).
	SiblingMinBytes int64   `json:"sibling_min_bytes"`
	SiblingStep     float64 `json:"sibling_step"`
	SiblingStay     float64 `json:"sibling_stay"`
	SiblingFar      float64 `json:"sibling_far"`
	SiblingSizes    int     `json:"sibling_sizes"`

	// protocol switch: up to SwitchLines lines of at least
	// SwitchMinPoints sizes each, a line added only when it takes the
	// residual below SwitchMinGain times that without it; looked at only when one line misses by SwitchMinRMS
	// (relative rms) or more. A switch is a protocol change when the new
	// line starts SwitchJump times above the old one (or its start-up
	// cost grows while bytes get cheaper), a change of copy mechanism when
	// the cost per byte changes by SwitchSlope.
	SwitchLines     int     `json:"switch_lines"`
	SwitchMinPoints int     `json:"switch_min_points"`
	SwitchMinGain   float64 `json:"switch_min_gain"`
	SwitchMinRMS    float64 `json:"switch_min_rms"`
	SwitchJump      float64 `json:"switch_jump"`
	SwitchSlope     float64 `json:"switch_slope"`
	// SwitchSmooth: a break is a protocol switch only where the measured
	// step into it grows the time by more than the steps on either side
	// (a kink), and no finding at all where it does not and the steps on
	// either side cost within SwitchSmooth of each other a byte: a smooth
	// curve (its cost per byte moving less than 20%) is no switch,
	// whatever lines fitted to it say.
	SwitchSmooth float64 `json:"switch_smooth"`
	// BWSwitchJump: in a bandwidth series, a size moving this many times
	// the bandwidth of a size that gained nothing on the one before it
	// (doubling the bytes doubles the bandwidth at most where latency
	// rules) is a protocol switch.
	BWSwitchJump float64 `json:"bw_switch_jump"`

	// link efficiency: a WARNING below EfficiencyWarn of the link; a
	// plateau when the last three sizes lie within PlateauSpread of each
	// other below PlateauBelow of the link; bus bandwidth is a WARNING
	// below BusWarn of the link at BusWarnMinBytes or more.
	EfficiencyWarn  float64 `json:"efficiency_warn"`
	PlateauSpread   float64 `json:"plateau_spread"`
	PlateauBelow    float64 `json:"plateau_below"`
	BusWarn         float64 `json:"bus_warn"`
	BusWarnMinBytes int64   `json:"bus_warn_min_bytes"`

	// fabric: small-message latency classes, µs (latencyClasses): below
	// FabricNetMin no network (the fastest published, InfiniBand EDR/HDR,
	// 0.8-1 µs); shared memory up to FabricRDMA (x86 0.2-0.7, small ARM
	// cores ~3); InfiniBand, RoCE, Omni-Path and Slingshot from
	// FabricNetMin to FabricRDMA; from FabricRDMA to FabricSlow none (a
	// slow RDMA path, user-space Ethernet); kernel TCP from FabricSlow.
	// Below FabricShm, a run that does not say where its ranks ran most
	// likely shared a node: its steps from CliffCacheBytes on may be the
	// caches'.
	FabricNetMin float64 `json:"fabric_net_min"`
	// FabricTofu: where the run names Fujitsu's Tofu-D, the fastest
	// network answers from this (its published put latency, 0.49 µs, a
	// little below: Fabrics), not from FabricNetMin.
	FabricTofu float64 `json:"fabric_tofu"`
	FabricShm  float64 `json:"fabric_shm"`
	FabricRDMA float64 `json:"fabric_rdma"`
	FabricSlow float64 `json:"fabric_slow"`
	// FabricFar: above it, slower than any fabric's published figure
	// (the slowest, TCP over 1 GbE, 105 µs; healthy TCP between the
	// emulated hosts of gomb's testbed, 10-12 µs): a WARNING.
	FabricFar float64 `json:"fabric_far"`
	// FabricEFA: AWS EFA's SRD from FabricSlow to it (published: 9.87 µs
	// on hpc6a, Fabrics; 15-18 µs on older instances).
	FabricEFA float64 `json:"fabric_efa"`
	// FabricGPU: with messages in GPU memory, every class bound above is
	// this much higher (device-to-device latency runs a few µs above host
	// latency on the same fabric: Slingshot 2.7 against 1.6 µs).
	FabricGPU float64 `json:"fabric_gpu"`

	// one-sided: a one-sided operation's smallest message taking
	// OneSidedSlowUS or more, over TCP or a transport the run does not
	// name, is software RMA without asynchronous progress (the held-out
	// logs' puts over TCP take hundreds of µs; the fastest kernel TCP path
	// answers a two-sided message in 10-30 µs).
	OneSidedSlowUS float64 `json:"one_sided_slow_us"`

	// tails (IMB -show_tail, OSU -z): a slowest repetition TailMaxRatio
	// times the mean, or a 99th percentile TailP99Ratio times it (INFO).
	TailMaxRatio float64 `json:"tail_max_ratio"`
	TailP99Ratio float64 `json:"tail_p99_ratio"`

	// gpu staging: with GPU buffers, a 1-byte message GPUStagingRatio
	// times an empty one and GPUStagingMinUS more.
	GPUStagingRatio float64 `json:"gpu_staging_ratio"`
	GPUStagingMinUS float64 `json:"gpu_staging_min_us"`

	// collective model: a collective slower than its point-to-point model
	// by CollectiveRatio and by CollectiveMinUS at least, at
	// CollectiveMinSizes sizes or more. The healthy corpus (both MPIs, np
	// 2, shared memory) reaches 7.3× (MPICH Allgatherv at 256 KiB): 10×
	// leaves that a margin.
	CollectiveRatio    float64 `json:"collective_ratio"`
	CollectiveMinUS    float64 `json:"collective_min_us"`
	CollectiveMinSizes int     `json:"collective_min_sizes"`

	// stragglers: one rank's mean stands StragglerGap times below or
	// above the median of the others' (a late rank's synchronising calls
	// return soonest: the others wait for it) in StragglerShare of the
	// measurements where one rank stands apart or more (at least
	// StragglerMinSizes of them), with a chance below StragglerP of that
	// happening by luck.
	StragglerGap      float64 `json:"straggler_gap"`
	StragglerMinSizes int     `json:"straggler_min_sizes"`
	StragglerShare    float64 `json:"straggler_share"`
	StragglerP        float64 `json:"straggler_p"`

	// history: with HistoryMinRuns earlier runs of the same system or
	// more, a benchmark HistoryRatio times slower than their median
	// (beyond 3× their spread, at adjacent sizes) is a WARNING.
	HistoryMinRuns int     `json:"history_min_runs"`
	HistoryRatio   float64 `json:"history_ratio"`

	// fleet (gomb fleet): a pair is slow when it is FleetMinRatio worse
	// than the typical pair (bandwidth below 1/(1+r) of it, latency above
	// 1+r times it) and FleetK robust deviations (1.4826 MAD of the
	// healthy pairs, on a log scale) beyond it; a node is the culprit
	// when FleetNodeShare of its partners or more (two at least) saw it
	// slow. A pair measured once (one sweep) must be FleetOnceRatio worse:
	// a pair is slow only when each of its measurements is.
	FleetMinRatio  float64 `json:"fleet_min_ratio"`
	FleetOnceRatio float64 `json:"fleet_once_ratio"`
	FleetK         float64 `json:"fleet_k"`
	FleetNodeShare float64 `json:"fleet_node_share"`

	// congestion (gomb congestion): a canary is slowed by the congestors
	// when its impact factor (average or 99th percentile) is CongestionCIF
	// or more and, over several trials, its 95% interval is above 1.
	CongestionCIF float64 `json:"congestion_cif"`
}

// DefaultThresholds are gomb's thresholds.
var DefaultThresholds = Thresholds{
	SpreadRatio: 3, SpreadMinUS: 1, SpreadMinSizes: 2, SpreadOneUS: 3,
	BimodalMinSamples: 20, BimodalMinShare: 0.1, BimodalSeparation: 1.5, BimodalWarnShare: 0.25, BimodalMinGapUS: 0.25,
	CliffTimeRatio: 1.5, CliffTimeMinUS: 1, CliffStay: 0.7, CliffRegain: 1.25, CliffSmallRegain: 4, CliffShared: 3, SwitchMaxStep: 12, CliffCacheBytes: 256 << 10,
	BigStep: 10, BigStepGPU: 5, BigStepP2P: 4, BigStepMinUS: 10,
	CliffBWDrop: 0.8, CliffBWMinBytes: 1024, CliffBWStay: 0.9, FallBW: 0.4, ModesRatio: 1.5, InversionRatio: 1.1, InversionMinUS: 10, InversionSizes: 4, InversionWorst: 2,
	SiblingMinBytes: 1024, SiblingStep: 0.5, SiblingStay: 0.7, SiblingFar: 0.5, SiblingSizes: 2,
	SwitchLines: 3, SwitchMinPoints: 3, SwitchMinGain: 0.3, SwitchMinRMS: 0.1, SwitchJump: 1.3, SwitchSlope: 1.5, SwitchSmooth: 0.2, BWSwitchJump: 2.5,
	EfficiencyWarn: 0.5, PlateauSpread: 1.05, PlateauBelow: 0.7, BusWarn: 0.5, BusWarnMinBytes: 1 << 20,
	FabricNetMin: 0.6, FabricTofu: 0.45, FabricShm: 1, FabricRDMA: 4, FabricSlow: 8, FabricFar: 250, FabricEFA: 25, FabricGPU: 2, OneSidedSlowUS: 100, TailMaxRatio: 10, TailP99Ratio: 2, GPUStagingRatio: 4, GPUStagingMinUS: 5,
	CollectiveRatio: 10, CollectiveMinUS: 2, CollectiveMinSizes: 2,
	StragglerGap: 1.5, StragglerMinSizes: 5, StragglerShare: 0.5, StragglerP: 0.001,
	HistoryMinRuns: 3, HistoryRatio: 1.5,
	FleetMinRatio: 0.5, FleetOnceRatio: 1, FleetK: 4, FleetNodeShare: 0.6,
	CongestionCIF: 1.2,
}
