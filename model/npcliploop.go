package model

import (
	"slices"

	"github.com/tfuzz/tfuzz/tensor"
)

// Which inner loop np.clip's ufunc runs with array bounds. clip.cpp's
// _npy_clip takes the constant loop (x < min ? min : x, then > max) when
// the inner loop's steps of both bounds are 0, else MIN(MAX(x, min), max)
// element by element; the two differ only on a tie of -0.0 and +0.0 in
// f32/f64 (f16's half_tag is no floating_point_tag, so both loops run
// _NPY_CLIP there). The steps come from the ufunc machinery: the trivial
// loop when it applies, else the iterator's inner strides.

// clipLoop is the loop np.clip runs over every element of one call.
type clipLoop uint8

const (
	clipConstLoop   clipLoop = iota // both bounds' steps are 0
	clipGeneralLoop                 // some bound steps through memory
	clipLoopOpen                    // decided by the iterator's axis order and buffer cost
)

// npLoopOperand is a ufunc input as the loop selection sees it.
type npLoopOperand struct {
	shape, strides []int // element strides; rank 0 for a Python scalar
	cast           bool  // its dtype is not the loop's
}

func npLoopOperandOf(a pyArg, common tensor.DType) npLoopOperand {
	if a.isScalar() {
		// a Python scalar becomes a 0-d array of the resolved descriptor
		// (ufunc_object.c:4246-4262, npy_update_operand_for_scalar)
		return npLoopOperand{}
	}
	st := a.t.Strides
	if st == nil {
		st = tensor.ContiguousStrides(a.t.Shape)
	}
	return npLoopOperand{shape: a.t.Shape, strides: st, cast: a.t.DType != common}
}

// numpyClipLoop says which loop runs for the operands x, min, max (all
// three given) of the common dtype over the broadcast shape.
func numpyClipLoop(args []pyArg, common tensor.DType, shape []int) clipLoop {
	ops := make([]npLoopOperand, len(args))
	for k, a := range args {
		ops[k] = npLoopOperandOf(a, common)
	}
	if steps, ok := npTrivialSteps(ops); ok {
		if steps[1] == 0 && steps[2] == 0 {
			return clipConstLoop
		}
		return clipGeneralLoop
	}
	lo, hi := npBoundStrides(ops[1], shape), npBoundStrides(ops[2], shape)
	switch {
	case lo == npStrideNonzero || hi == npStrideNonzero:
		return clipGeneralLoop
	case lo == npStrideZero && hi == npStrideZero:
		return clipConstLoop
	}
	return clipLoopOpen
}

// npTrivialSteps is check_for_trivial_loop and try_trivial_single_output_loop:
// an input needing a cast is cast ahead when it is 0-d or 1-D with at most
// a buffer of elements (else no trivial loop); then every input but the 0-d
// ones must have one shape, and N-D ones one contiguity (C or F). The
// steps are 0 for a 0-d input, a 1-D input's stride, an N-D one's itemsize
// (here 1: only zero and non-zero matter).
func npTrivialSteps(ops []npLoopOperand) ([]int, bool) {
	for k, o := range ops {
		if !o.cast {
			continue
		}
		if len(o.shape) > 1 || len(o.shape) == 1 && o.shape[0] > numpyBufferSize {
			return nil, false
		}
		ops[k].strides = tensor.ContiguousStrides(o.shape) // the cast copy
	}
	var shape []int
	order := npContig(0)
	steps := make([]int, len(ops))
	for k, o := range ops {
		if len(o.shape) == 0 {
			continue
		}
		if shape == nil {
			shape = o.shape
		} else if !slices.Equal(shape, o.shape) {
			return nil, false
		}
		if len(o.shape) == 1 {
			steps[k] = o.strides[0]
			continue
		}
		steps[k] = 1
		c := npContiguity(o.shape, o.strides)
		switch {
		case c == 0:
			return nil, false
		case order == 0:
			order = c
		case order != c:
			return nil, false
		}
	}
	return steps, true
}

// npContig is NumPy's pair of flags C_CONTIGUOUS and F_CONTIGUOUS.
type npContig uint8

const (
	npCContig npContig = 1 << iota
	npFContig
)

// npContiguity returns the contiguity flags of a layout (dims of size 1
// take any stride; an empty array is both).
func npContiguity(shape, strides []int) npContig {
	if tensor.NumElements(shape) == 0 {
		return npCContig | npFContig
	}
	var c npContig
	if npDenseFrom(shape, strides, len(shape)-1, -1) {
		c |= npCContig
	}
	if npDenseFrom(shape, strides, 0, 1) {
		c |= npFContig
	}
	return c
}

// npDenseFrom walks the dims from start in direction dir and reports
// whether each dim longer than 1 has the stride of the dims walked so far.
func npDenseFrom(shape, strides []int, start, dir int) bool {
	acc := 1
	for k := start; k >= 0 && k < len(shape); k += dir {
		if shape[k] != 1 && strides[k] != acc {
			return false
		}
		acc *= shape[k]
	}
	return true
}

// npStrideClass is how an iterator operand moves along the axes longer than 1.
type npStrideClass uint8

const (
	npStrideZero    npStrideClass = iota // stride 0 along every one (or there are none)
	npStrideNonzero                      // a non-zero stride along every one
	npStrideMixed
)

// npBoundStrides classifies an operand in the iterator (nditer_constr.c
// npyiter_fill_axisdata: stride 0 along an axis of the broadcast shape 1 or
// where the operand has size 1 or no dim, else its own stride). Its inner
// stride is then 0 (unbuffered: the coalesced innermost stride; buffered:
// a single-stride operand with stride 0 keeps it) or non-zero (its stride,
// or the buffer's itemsize), whichever axis is innermost; for a mixed one
// the axis order and the buffering setup decide.
func npBoundStrides(o npLoopOperand, shape []int) npStrideClass {
	zero, nonzero := 0, 0
	off := len(shape) - len(o.shape)
	for i, n := range shape {
		if n == 1 {
			continue
		}
		j := i - off
		if j < 0 || o.shape[j] == 1 || o.strides[j] == 0 {
			zero++
		} else {
			nonzero++
		}
	}
	switch {
	case nonzero == 0:
		return npStrideZero
	case zero == 0:
		return npStrideNonzero
	}
	return npStrideMixed
}
