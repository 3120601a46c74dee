package imb

import (
	"math"

	"github.com/gomb-hpc/gomb/internal/kernel"

	"github.com/gomb-hpc/gomb/result"
)

// msgsPerSampleIMB is IMB's MSGSPERSAMPLE constant, used by the rough
// one-second estimate whatever -iter says.
const msgsPerSampleIMB = 1000

// InitialReps is the repetition count of a size before any measurement
// (IMB's n_sample after buffer setup), and whether the dynamic estimate
// follows. maxMsg is 2^MsgLogMax.
func (o *Options) InitialReps(s *Spec, size int64, np int) (n int, dynamic bool) {
	return o.InitialRepsIn("", s, size, np)
}

// InitialRepsIn is InitialReps for one of the benchmark's run modes: IMB
// counts non-aggregate repetitions (and Window's: Spec.NonAggr) from
// -iter's msgs_nonaggr.
func (o *Options) InitialRepsIn(mode string, s *Spec, size int64, np int) (n int, dynamic bool) {
	msgs := o.MsgsPerSample
	if mode == result.ModeNonAggregate || s.NonAggr {
		msgs = o.MsgsNonAggr
	}
	switch {
	case s.Family == Sync:
		n = msgs
	case size > 0:
		n = int(max(1, min(int64(o.OverallVolMiB)<<20/size, int64(msgs))))
	default:
		n = msgs
	}
	switch {
	case o.Policy == PolicyOff:
		// IMB sets n_sample = msgspersample here, whatever the mode
		return o.MsgsPerSample, false
	case o.Policy == PolicyPrecision:
		return n, false // the cap; the batches decide
	case o.Policy == PolicyMultipleNP || (o.Policy == PolicyAuto && s.Rooted):
		if s.Family == Sync {
			return n, false
		}
		initSize := max(size, 4)
		maxMsg := float64(int64(1) << o.MsgLogMax)
		tmp := int(float64(msgs)*maxMsg/(float64(int64(np)*initSize)+maxMsg) + 0.5)
		return max(tmp-tmp%np, np), false
	}
	return n, true
}

// RoughReps is IMB's first estimate: how many repetitions of a kernel that
// took t seconds fit in about one second.
func RoughReps(t float64) int { return roughReps(t, msgsPerSampleIMB) }

// RoughRepsOf is RoughReps for s: IMB-IO's estimate takes its own
// MSGSPERSAMPLE (IMB_settings_io.h's 50; IMB's helpers include it there).
func (s *Spec) RoughRepsOf(t float64) int {
	if s.Kernel == kernel.IMBIO {
		return roughReps(t, ioRecords)
	}
	return RoughReps(t)
}

func roughReps(t float64, most int) int {
	switch {
	case t < 1.0/float64(most):
		return most
	case t < 1.0:
		return int(1.0/t + 0.5)
	}
	return 1
}

// TimeReps is the repetition count that fits the -time target for a kernel
// taking t seconds per repetition, computed in single precision as IMB
// does; selected is returned when t is too small to tell.
func TimeReps(t, secs float64, selected int) int {
	val := float32(1 + secs/t)
	if t > 1e-8 && val <= float32(math.MaxInt32) {
		return int(val)
	}
	return selected
}

// ListReps applies IMB's rule for user size lists: never more repetitions
// than any earlier-listed smaller size, never fewer than any earlier-listed
// larger size. sizes[i] and reps[i] are the earlier sizes and their counts.
func ListReps(sizes []int64, reps []int, size int64, tSample int) int {
	for i, s := range sizes {
		if s < size {
			tSample = min(tSample, reps[i])
		} else {
			tSample = max(tSample, reps[i])
		}
	}
	return tSample
}

// WarmupReps is the warm-up count before a timed run of n repetitions:
// n/10, at least min(10, n).
func WarmupReps(n int) int { return max(n/10, min(10, n)) }

// Layout is where a size's messages live in the buffers.
type Layout struct {
	SendLen, RecvLen     int64 // bytes one repetition uses
	SendAlloc, RecvAlloc int64 // bytes allocated
	SendOffs, RecvOffs   int64 // -off_cache stride between repetitions
	SendIter, RecvIter   int   // -off_cache buffer copies (1: reuse)
}

// NeededGB is the buffer memory of the layout in GiB.
func (l Layout) NeededGB() float64 { return float64(l.SendAlloc+l.RecvAlloc) / float64(1<<30) }

// assignSize is the size of IMB's buffer element (assign_type, a float):
// buffers hold at least one, even for 0-byte messages.
const assignSize = 4

// Layout computes buffer sizes and -off_cache cycling for a size with n
// initial repetitions, as IMB's IMB_init_buffers_iter does (buffers for
// max(size, 4) bytes).
func (o *Options) Layout(s *Spec, size int64, np, n int) Layout {
	sl, rl := s.Buffers(max(size, assignSize), np)
	l := Layout{SendLen: sl, RecvLen: rl, SendAlloc: sl, RecvAlloc: rl, SendIter: 1, RecvIter: 1}
	if !o.OffCache || s.Family == Sync || s.Kernel == kernel.IMBIO { // IMB-IO ignores -off_cache
		return l
	}
	cls := int64(o.CacheLine)
	span := int64(2 * o.CacheMB * (1 << 20))
	stride := func(length int64) (int64, int) {
		ofs := ((length+cls-1)/cls + 1) * cls
		return ofs, int(min(int64(n), (span+ofs-1)/ofs))
	}
	l.SendOffs, l.SendIter = stride(sl)
	l.RecvOffs, l.RecvIter = stride(rl)
	l.SendAlloc = max(sl, int64(l.SendIter)*l.SendOffs)
	l.RecvAlloc = max(rl, int64(l.RecvIter)*l.RecvOffs)
	return l
}

// NPSequence is IMB's list of active process counts: from
// max(1, min(npmin, world)) doubling, capped at world, ending at world.
func NPSequence(npmin, world int) []int {
	np := max(1, min(npmin, world))
	out := []int{np}
	for np < world {
		np = min(2*np, world)
		out = append(out, np)
	}
	return out
}

// MapKey is IMB's split key for world rank r under -map PxQ: processes are
// numbered along the rows of a P by Q grid.
func MapKey(r, p, q int) int {
	if p <= 1 || q <= 1 {
		return r
	}
	prod := p * q
	k := (q * r) % (prod - 1)
	if k == 0 {
		k = r
	}
	return k
}
