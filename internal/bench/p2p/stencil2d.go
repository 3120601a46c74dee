package p2p

import "github.com/gomb-hpc/gomb/internal/kernel"

func init() {
	Register(&Spec{
		Name:    "Stencil2D",
		Op:      kernel.P2PStencil2D,
		Order:   6,
		Kind:    Counted,
		Grid:    grid2D,
		Invalid: isInvalid,
		Buffers: 4,
		Summary: "halo exchange on a periodic 2-D grid of all ranks: MPI_Irecv and MPI_Isend to the 4 neighbours, MPI_Waitall",
	})
}

// grid2D is IMB-P2P's 2-D grid: the squarest ly x lx = np with both at
// least 2 (lx*ly grown as a square, ly then lowered to a divisor of np),
// and rank me's neighbours left, right, down, up (periodic).
func grid2D(np, me int) (dims, neighbours []int, ok bool) {
	lx, ly := 2, 2
	for lx*ly < np {
		lx++
		ly++
	}
	if lx*ly > np {
		for ly > 1 && np%ly != 0 {
			ly--
		}
		lx = np / ly
	}
	if lx < 2 || ly < 2 || lx*ly != np {
		return nil, nil, false
	}
	at := func(x, y int) int { return lx*((y+ly)%ly) + (x+lx)%lx }
	x, y := me%lx, me/lx
	return []int{ly, lx}, []int{at(x-1, y), at(x+1, y), at(x, y-1), at(x, y+1)}, true
}
