package osu

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseDDT(t *testing.T) {
	for _, c := range []struct {
		in   string
		want DDT
		err  string
	}{
		{"cont", DDT{Kind: "cont", Stride: 8, BlockLen: 4}, ""},
		{"CONT", DDT{Kind: "cont", Stride: 8, BlockLen: 4}, ""},
		{"vect:16:2", DDT{Kind: "vect", Stride: 16, BlockLen: 2}, ""},
		{"vect:4:4", DDT{Kind: "vect", Stride: 4, BlockLen: 4}, ""},
		{"indx:/tmp/a:b", DDT{Kind: "indx", Stride: 8, BlockLen: 4, File: "/tmp/a:b"}, ""},
		{"cont:1", DDT{}, "cont takes no arguments"},
		{"vect", DDT{}, "want vect:STRIDE:BLOCK_LENGTH"},
		{"vect:0:1", DDT{}, "each at least 1"},
		{"vect:2:3", DDT{}, "block length 3 exceeds stride 2"},
		{"indx", DDT{}, "want indx:FILE"},
		{"struct", DDT{}, "want cont, vect:STRIDE:BLOCK_LENGTH or indx:FILE"},
	} {
		got, err := ParseDDT(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: %v, want %q", c.in, err, c.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: %+v, %v; want %+v", c.in, got, err, c.want)
		}
		if again, err := ParseDDT(got.String()); err != nil || !reflect.DeepEqual(again, got) {
			t.Errorf("%q: round trip %q gives %+v, %v", c.in, got.String(), again, err)
		}
	}
}

func TestIndexedBlocks(t *testing.T) {
	d, l, reach, err := IndexedBlocks([]byte("# displacement,length\n0,2\n 4 , 2\n\n10,1\n"), "f")
	if err != nil || !reflect.DeepEqual(d, []int{0, 4, 10}) || !reflect.DeepEqual(l, []int{2, 2, 1}) || reach != 11 {
		t.Errorf("%v %v reach %d, %v", d, l, reach, err)
	}
	for _, c := range []struct{ text, err string }{
		{"0,2\n4;2\n", "line 2: want DISPLACEMENT,LENGTH"},
		{"-1,2\n", "line 1"},
		{"# only\n", "no blocks"},
	} {
		if _, _, _, err := IndexedBlocks([]byte(c.text), "f"); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%q: %v, want %q", c.text, err, c.err)
		}
	}
}

// TestTakesDDT: -D where OSU 7.2 has it.
func TestTakesDDT(t *testing.T) {
	want := map[string]bool{"latency": true, "bw": true, "bibw": true, "mbw_mr": true, "multi_lat": true, "latency_mp": true,
		"latency_persistent": true, "bcast": true, "allgather": true, "alltoallw": true, "scatterv": true, "iallgather": true,
		"ialltoallv": true, "neighbor_alltoall": true, "ineighbor_allgatherv": true,
		"latency_mt": false, "oneway": false, "allreduce": false, "barrier": false, "ireduce": false, "put_latency": false,
		"bw_fan_in": false, "allgather_persistent": false, "reduce_scatter_block": false, "init": false}
	for name, w := range want {
		if s := spec(t, name); s.TakesDDT() != w {
			t.Errorf("%s: takes -D %v, want %v", name, !w, w)
		}
	}
}

func FuzzIndexedBlocks(f *testing.F) {
	f.Add([]byte("0,2\n4,2\n"))
	f.Add([]byte("# c\n\n1,1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, l, reach, err := IndexedBlocks(data, "f")
		if err != nil {
			return
		}
		if len(d) == 0 || len(d) != len(l) {
			t.Fatalf("%d displacements, %d lengths", len(d), len(l))
		}
		for i := range d {
			if d[i] < 0 || l[i] < 0 || int64(d[i])+int64(l[i]) > reach {
				t.Fatalf("block %d,%d past reach %d", d[i], l[i], reach)
			}
		}
	})
}

func FuzzParseDDT(f *testing.F) {
	for _, s := range []string{"cont", "vect:8:4", "indx:x", "vect::"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := ParseDDT(s)
		if err != nil {
			return
		}
		if again, err := ParseDDT(d.String()); err != nil || !reflect.DeepEqual(again, d) {
			t.Fatalf("%q: %+v round-trips to %+v, %v", s, d, again, err)
		}
	})
}
