package p2p

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:    "Stencil3D",
		Op:      kernel.P2PStencil3D,
		Order:   7,
		Kind:    Counted,
		Grid:    grid3D,
		Invalid: isInvalid,
		Buffers: 6,
		Summary: "halo exchange on a periodic 3-D grid of all ranks: MPI_Irecv and MPI_Isend to the 6 neighbours, MPI_Waitall",
	})
}

// grid3D is IMB-P2P's 3-D grid, lz x ly x lx = np with each at least 2,
// found as IMB finds it (a cube grown to hold np, then lz lowered to a
// divisor of np and the rest split as grid2D splits it while that keeps
// ly >= lz), and rank me's six neighbours (periodic).
func grid3D(np, me int) (dims, neighbours []int, ok bool) {
	lx, ly, lz := 2, 2, 2
	for lx*ly*lz < np {
		lx++
		ly++
		lz++
	}
	for lx*ly*lz > np {
		lz--
		for lz > 1 && np%lz != 0 {
			lz--
		}
		n := 0
		if lz != 0 {
			n = np / lz
		}
		a, b := 2, 2
		for a*b < n {
			a++
			b++
		}
		if a*b > n {
			for b > 1 && n%b != 0 {
				b--
			}
			a = n / b
		}
		if b >= lz {
			lx, ly = a, b
		}
	}
	if lx < 2 || ly < 2 || lz < 2 || lx*ly*lz != np {
		return nil, nil, false
	}
	at := func(x, y, z int) int { return lx*ly*((z+lz)%lz) + lx*((y+ly)%ly) + (x+lx)%lx }
	z := me / (lx * ly)
	y, x := (me-lx*ly*z)/lx, (me-lx*ly*z)%lx
	return []int{lz, ly, lx}, []int{at(x-1, y, z), at(x+1, y, z), at(x, y-1, z), at(x, y+1, z), at(x, y, z-1), at(x, y, z+1)}, true
}
