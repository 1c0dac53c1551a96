package cpu

import "github.com/tfuzz/tfuzz/tensor"

// The iteration space of an elementwise op: the output is row-major over the
// broadcast shape, and every input is a strided view of its storage with
// stride 0 along broadcast dimensions. Dimensions that are contiguous for
// the output and every input are merged, so that a contiguous op (or a
// contiguous operand against a broadcast scalar) is one row.

// maxIn is the most inputs an elementwise op has (where and clamp have 3).
const maxIn = 3

// view is an input's geometry: shape, element strides (nil: row-major) and
// offset into its storage. A Python scalar is a 0-dim view of one element.
type view struct {
	shape   []int
	strides []int
	offset  int
}

// viewOf returns the geometry of t.
func viewOf(t *tensor.Tensor) view { return view{t.Shape, t.Strides, t.Offset} }

// scalarView is the geometry of a one-element operand broadcast everywhere.
var scalarView = view{}

// layout is the collapsed iteration space. Rows are its last dimension.
type layout struct {
	n       int // elements of the output
	rank    int // >= 1 when n > 0
	shape   [tensor.MaxRank]int
	strides [maxIn][tensor.MaxRank]int
	offsets [maxIn]int
	nin     int
}

// newLayout builds the iteration space of an output of shape out over the
// inputs, which broadcast to out (the caller checked).
func newLayout(out []int, ins ...view) layout {
	l := layout{n: tensor.NumElements(out), nin: len(ins)}
	for k, in := range ins {
		l.offsets[k] = in.offset
	}
	if l.n == 0 {
		return l
	}
	r := len(out)
	// per-dimension strides of each input, aligned to the right of out
	var st [maxIn][tensor.MaxRank]int
	for k, in := range ins {
		acc := 1
		for j := len(in.shape) - 1; j >= 0; j-- {
			i := j + r - len(in.shape)
			s := acc
			if in.strides != nil {
				s = in.strides[j]
			}
			if in.shape[j] != 1 || zooBuild && zoo("broadcast-stride") { // zoo: a broadcast dim keeps its stride
				st[k][i] = s
			}
			acc *= in.shape[j]
		}
	}
	// drop size-1 dimensions, then merge neighbours contiguous for all
	for i := 0; i < r; i++ {
		if out[i] == 1 {
			continue
		}
		if l.rank > 0 && l.mergeable(l.rank-1, out[i], &st, i) {
			l.shape[l.rank-1] *= out[i]
			for k := range ins {
				l.strides[k][l.rank-1] = st[k][i]
			}
			continue
		}
		l.shape[l.rank] = out[i]
		for k := range ins {
			l.strides[k][l.rank] = st[k][i]
		}
		l.rank++
	}
	if l.rank == 0 { // one element
		l.rank, l.shape[0] = 1, 1
	}
	return l
}

// mergeable reports whether collapsed dim d can absorb the next dimension
// (size size, strides st[.][i]) for every input.
func (l *layout) mergeable(d, size int, st *[maxIn][tensor.MaxRank]int, i int) bool {
	for k := 0; k < l.nin; k++ {
		if l.strides[k][d] != st[k][i]*size {
			return false
		}
	}
	return true
}

// contiguous reports whether the space is one row in which every input has
// stride 1 (the fast path: kernels run over plain subslices).
func (l *layout) contiguous() bool {
	if l.rank != 1 {
		return false
	}
	for k := 0; k < l.nin; k++ {
		if l.strides[k][0] != 1 {
			return false
		}
	}
	return true
}

// walk calls row(o, pos, n) for the runs of output elements [lo, hi) that
// lie in one row: output index o, the storage position of each input at o,
// and the run length n. Consecutive elements of a run are strides[k][rank-1]
// apart in input k.
func (l *layout) walk(lo, hi int, row func(o int, pos *[maxIn]int, n int)) {
	if lo >= hi {
		return
	}
	r := l.rank
	var idx [tensor.MaxRank]int
	rem := lo
	for d := r - 1; d >= 0; d-- {
		idx[d] = rem % l.shape[d]
		rem /= l.shape[d]
	}
	var pos [maxIn]int
	for k := 0; k < l.nin; k++ {
		p := l.offsets[k]
		for d := 0; d < r; d++ {
			p += idx[d] * l.strides[k][d]
		}
		pos[k] = p
	}
	inner := l.shape[r-1]
	for o := lo; ; {
		n := min(inner-idx[r-1], hi-o)
		row(o, &pos, n)
		o += n
		if o >= hi {
			return
		}
		// step to the start of the next row, carrying into outer dims
		for k := 0; k < l.nin; k++ {
			pos[k] += n * l.strides[k][r-1]
		}
		idx[r-1] += n
		for d := r - 1; d > 0 && idx[d] == l.shape[d]; d-- {
			idx[d] = 0
			idx[d-1]++
			for k := 0; k < l.nin; k++ {
				pos[k] += l.strides[k][d-1] - l.shape[d]*l.strides[k][d]
			}
		}
	}
}

// tileLen is the length of the per-worker tiles strided or broadcast
// operands are gathered into.
const tileLen = 512

// tile holds one operand's elements for a kernel call when its row is not
// contiguous. A broadcast element (stride 0) is filled once and reused
// while the element stays the same.
type tile[T any] struct {
	buf    []T
	filled int // stride-0 fill: how many copies of buf[0] are valid
	src    int // stride-0 fill: storage position they came from
}

// grow returns the tile's first n elements, allocating it at the first
// call as long as the row (a small tensor's row is far below tileLen).
func (t *tile[T]) grow(n int) []T {
	if cap(t.buf) < n {
		t.buf = make([]T, n, max(n, min(2*n, tileLen)))
	}
	return t.buf[:n]
}

// get returns the n elements of data starting at pos with stride s, as a
// contiguous slice (data itself when s == 1).
func (t *tile[T]) get(data []T, pos, s, n int) []T {
	switch s {
	case 1:
		return data[pos : pos+n]
	case 0:
		if t.filled >= n && t.src == pos {
			return t.buf[:n]
		}
		b := t.grow(n)
		v := data[pos]
		for i := range b {
			b[i] = v
		}
		t.filled, t.src = n, pos
		return b
	}
	t.filled = 0
	b := t.grow(n)
	for i := range b {
		b[i] = data[pos]
		pos += s
	}
	return b
}
