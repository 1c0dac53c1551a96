package model

import "strconv"

// broadcastShapes returns the NumPy-style broadcast of two shapes, or the
// first dimension (counted from the left of the output) where they clash.
func broadcastShapes(a, b []int) (shape []int, badDim int, ok bool) {
	n := max(len(a), len(b))
	shape = make([]int, n)
	for i := 0; i < n; i++ {
		da, db := dimFromRight(a, n-1-i), dimFromRight(b, n-1-i)
		switch {
		case da == db || db == 1:
			shape[i] = da
		case da == 1:
			shape[i] = db
		default:
			return nil, i, false
		}
	}
	return shape, 0, true
}

// dimFromRight returns the size of dim k counted from the right (0 = last), 1 past the rank.
func dimFromRight(shape []int, k int) int {
	if k >= len(shape) {
		return 1
	}
	return shape[len(shape)-1-k]
}

// broadcastIndex maps a row-major index of the output shape to the index of
// the element of an input of shape in that broadcasts to it.
func broadcastIndex(out []int, i int, in []int) int {
	idx, stride := 0, 1
	for k := 0; k < len(in); k++ {
		od := out[len(out)-1-k]
		coord := i % od
		i /= od
		id := in[len(in)-1-k]
		if id != 1 {
			idx += coord * stride
		}
		stride *= id
	}
	return idx
}

// normalizeDim resolves a possibly negative dim against rank; ok is false out of range.
func normalizeDim(dim, rank int) (int, bool) {
	if dim < 0 {
		dim += rank
	}
	return dim, dim >= 0 && dim < rank
}

// shapeTuple renders a shape as Python prints a tuple: (2,), (2, 3), ().
func shapeTuple(shape []int) string {
	s := "("
	for i, d := range shape {
		if i > 0 {
			s += ", "
		}
		s += itoa(d)
	}
	if len(shape) == 1 {
		s += ","
	}
	return s + ")"
}

// shapeTupleCompact renders a shape as NumPy prints it in broadcast errors: (2,), (2,3).
func shapeTupleCompact(shape []int) string {
	s := "("
	for i, d := range shape {
		if i > 0 {
			s += ","
		}
		s += itoa(d)
	}
	if len(shape) == 1 {
		s += ","
	}
	return s + ")"
}

func itoa(i int) string { return strconv.Itoa(i) }

func sameShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
