package osu

import (
	"fmt"
	"strconv"
	"strings"
)

// DDT is OSU's -D: every message one derived datatype over the size's
// elements instead of that many elements. cont: MPI_Type_contiguous of
// them; vect:STRIDE:BLOCK: MPI_Type_vector of elements/STRIDE blocks of
// BLOCK elements, STRIDE apart; indx:FILE: MPI_Type_indexed of the
// "DISPLACEMENT,LENGTH" lines of a file (elements), the same type at every
// size. The bandwidths count the bytes the type carries (Transmit Size).
type DDT struct {
	Kind     string `json:"kind"` // "cont", "vect" or "indx"
	Stride   int    `json:"stride"`
	BlockLen int    `json:"block_length"`
	File     string `json:"file,omitempty"`
	// Displs and Lens are the indexed type's blocks, read from File by
	// rank 0 (IndexedBlocks).
	Displs []int `json:"displacements,omitempty"`
	Lens   []int `json:"lengths,omitempty"`
}

// OSU's vector defaults, printed in its "Set Derived DataTypes" line
// whatever the type (OMB_DDT_STRIDE_DEFAULT, OMB_DDT_BLOCK_LENGTH_DEFAULT).
const (
	ddtStride   = 8
	ddtBlockLen = 4
)

// ParseDDT reads -D.
func ParseDDT(s string) (DDT, error) {
	kind, rest, _ := strings.Cut(s, ":")
	d := DDT{Kind: strings.ToLower(kind), Stride: ddtStride, BlockLen: ddtBlockLen}
	switch d.Kind {
	case "cont":
		if rest != "" {
			return DDT{}, fmt.Errorf("-D %q: cont takes no arguments", s)
		}
	case "vect":
		a, b, ok := strings.Cut(rest, ":")
		stride, err1 := strconv.Atoi(a)
		blen, err2 := strconv.Atoi(b)
		switch {
		case !ok || err1 != nil || err2 != nil || stride < 1 || blen < 1:
			return DDT{}, fmt.Errorf("-D %q: want vect:STRIDE:BLOCK_LENGTH, each at least 1", s)
		case blen > stride:
			// the blocks would overlap and the type reach past the message
			return DDT{}, fmt.Errorf("-D %q: block length %d exceeds stride %d", s, blen, stride)
		}
		d.Stride, d.BlockLen = stride, blen
	case "indx":
		if rest == "" {
			return DDT{}, fmt.Errorf("-D %q: want indx:FILE, a DISPLACEMENT,LENGTH line a block", s)
		}
		d.File = rest
	default:
		return DDT{}, fmt.Errorf("-D %q: want cont, vect:STRIDE:BLOCK_LENGTH or indx:FILE", s)
	}
	return d, nil
}

// String is -D's spelling.
func (d DDT) String() string {
	switch d.Kind {
	case "vect":
		return fmt.Sprintf("vect:%d:%d", d.Stride, d.BlockLen)
	case "indx":
		return "indx:" + d.File
	}
	return d.Kind
}

// IndexedBlocks reads an indexed type's file (OSU's format): a block a
// line, "DISPLACEMENT,LENGTH" in elements, '#' lines and blank lines
// skipped. Every block is used (OSU 7.2 leaves the last one out of the type
// while counting it in its Transmit Size). It returns the blocks and the
// type's reach, in elements: the end of its farthest block.
func IndexedBlocks(data []byte, file string) (displs, lens []int, reach int64, err error) {
	err = intPairs(data, "DISPLACEMENT,LENGTH in elements", func(line, d, l int) error {
		displs, lens = append(displs, d), append(lens, l)
		reach = max(reach, int64(d)+int64(l))
		return nil
	})
	switch {
	case err != nil:
		return nil, nil, 0, fmt.Errorf("-D indx:%s %w", file, err)
	case len(displs) == 0:
		return nil, nil, 0, fmt.Errorf("-D indx:%s: no blocks", file)
	}
	return displs, lens, reach, nil
}

// TakesDDT reports whether -D applies to s, as OSU 7.2 has it: the
// point-to-point tests and the collectives that move data without
// reducing it, blocking, non-blocking and neighbourhood.
func (s *Spec) TakesDDT() bool {
	switch s.Kind {
	case Latency, Bandwidth, MsgRate:
		// gomb's latency_mt threads carry plain elements
		return !s.Threads && !s.IsFan()
	case Collective, NonBlocking:
		return !s.Reduction && !s.NoSize && !s.Job.Persist
	}
	return false
}

// Reach is the end of an indexed type's farthest block, in elements (0
// for the others, which never reach past their message).
func (d *DDT) Reach() int64 {
	var r int64
	for i := range d.Displs {
		r = max(r, int64(d.Displs[i])+int64(d.Lens[i]))
	}
	return r
}
