package model

import (
	"math"
	"math/big"

	"github.com/tfuzz/tfuzz/tensor"
)

// torch.arange(start, end, dtype=D) on the CPU (pytorch.arange.dtype) and
// on CUDA (pytorch.arange.dtype.cuda): the Scalar bounds converted to D's
// accumulate type, the checks, the size from doubles (int64: from the
// converted bounds), and start + idx in the accumulate type.

// torchAccum is the accumulate type of an arange of one dtype on one
// device (AccumulateType.h).
type torchAccum int

const (
	accumInt64 torchAccum = iota
	accumFloat
	accumDouble
)

func torchArangeAccum(d tensor.DType, dev Device) torchAccum {
	switch {
	case !d.IsFloat():
		return accumInt64
	case d == tensor.F64, d == tensor.F32 && dev == CPU:
		return accumDouble
	}
	return accumFloat
}

// accumValue is a bound in the accumulate type: i for int64, f otherwise
// (a float accumulator's value already rounded to float).
type accumValue struct {
	i *big.Int
	f float64
}

// less reports a < b in the accumulate type.
func (a accumValue) less(b accumValue, acc torchAccum) bool {
	if acc == accumInt64 {
		return a.i.Cmp(b.i) < 0
	}
	return a.f < b.f
}

// toAccum is Scalar::to<acc>() of bound b. split reports a bound the
// releases convert differently (an old one refuses it in checked_convert,
// a later one checks start.to<double>() first or never converts the end):
// a NaN, ±inf or outside-int64 float into int64, and a finite double
// beyond float's range into float.
func toAccum(b arangeBound, acc torchAccum) (v accumValue, split bool) {
	switch acc {
	case accumInt64:
		if !b.isFloat {
			return accumValue{i: b.i}, false
		}
		two63 := math.Ldexp(1, 63)
		if math.IsNaN(b.f) || b.f < -two63 || b.f >= two63 {
			return v, true
		}
		t, _ := new(big.Float).SetFloat64(math.Trunc(b.f)).Int(nil)
		return accumValue{i: t}, false
	case accumDouble:
		return accumValue{f: b.f}, false // an int64's double is parseBound's, rounded once
	}
	if !b.isFloat {
		f, _ := new(big.Float).SetInt(b.i).Float32() // static_cast<float>(int64_t): one rounding
		return accumValue{f: float64(f)}, false
	}
	if !math.IsInf(b.f, 0) && math.Abs(b.f) > math.MaxFloat32 {
		return v, true
	}
	return accumValue{f: roundTo(b.f, tensor.F32)}, false
}

var torchArangeScalar = newRule("pytorch.arange.scalar-bounds",
	"torch.arange's bounds are c10::Scalars the Python arg parser makes as it makes torch.full's value (pytorch.full.scalar): an int below -2^63 is OverflowError \"can't convert negative int to unsigned\", one from 2^64 OverflowError \"int too big to convert\", one in [2^63, 2^64) a uint64 Scalar; int bounds without a dtype give int64, and arange_out's start.to<int64_t>() / end.to<int64_t>() (an integer dtype's accumulate type) refuses a uint64 Scalar: RuntimeError \"value cannot be converted to type int64_t without overflow\"; a float accumulate type takes its double or float. PyTorch 1.13 differs: every int outside int64 is RuntimeError \"Overflow when unpacking long\"",
	"pytorch 54d4a162 torch/csrc/utils/python_arg_parser.cpp PythonArgs::scalar_slow (PyLong_AsLongLongAndOverflow, then PyLong_AsUnsignedLongLong); pytorch aa6104e2 c10/core/Scalar.h (HAS_u; DEFINE_ACCESSOR: checked_convert<int64_t, uint64_t>); pytorch fe4d1829 aten/src/ATen/native/TensorFactories.cpp arange (set_to_integral_dtype: kLong for integral Scalars); pytorch e4bb10d6 aten/src/ATen/native/RangeFactories.cpp:162-164 (xstart = start.to<accscalar_t>(), xend); PyTorch 1.13 checked locally: arange(0, -2**70) and arange(0, 2**70) Overflow when unpacking long, arange(0, -2**63) inconsistent with step sign")

// torchArangeScalars is the arg parser's Scalars of arange's bounds, then,
// for an int64 accumulate type (toInt64), their to<int64_t>(); nil when
// both hold.
func (e *evaluation) torchArangeScalars(start, end arangeBound, toInt64 bool) *tensor.Outcome {
	// both bounds are parsed before the call; unsigned: a uint64 Scalar
	unsigned := false
	for _, b := range []arangeBound{start, end} {
		switch {
		case b.isFloat || b.i.IsInt64():
		case b.i.Sign() < 0:
			return outcomePtr(e.fail(torchArangeScalar, tensor.OutOfRange, "OverflowError: can't convert negative int to unsigned"))
		case !b.i.IsUint64():
			return outcomePtr(e.fail(torchArangeScalar, tensor.OutOfRange, "OverflowError: int too big to convert"))
		default:
			unsigned = true
		}
	}
	if toInt64 && unsigned {
		return outcomePtr(e.fail(torchArangeScalar, tensor.OutOfRange, "RuntimeError: value cannot be converted to type int64_t without overflow"))
	}
	return nil
}

// torchArangeDType is torch.arange(start, end, dtype=d) on the CPU or CUDA.
func (e *evaluation) torchArangeDType(start, end arangeBound, d tensor.DType) tensor.Outcome {
	rule, kernel := torchArangeDType, "arange_cpu"
	if e.p.Device == CUDA {
		rule, kernel = torchArangeDTypeCUDA, "arange_cuda"
	}
	e.use(rule)
	if o := e.torchArangeScalars(start, end, false); o != nil {
		return *o
	}
	switch d {
	case tensor.Bool, tensor.C64, tensor.C128, tensor.U16, tensor.U32, tensor.U64:
		return e.torchNoKernelError(kernel, d)
	}
	acc := torchArangeAccum(d, e.p.Device)
	xs, split1 := toAccum(start, acc)
	xe, split2 := toAccum(end, acc)
	if split1 || split2 {
		return e.unsupported(pyArangeDTypeOpen, "tfuzz: torch.arange(%s, %s, dtype=%s): the releases convert this bound differently", tensor.FormatFloat(start.f), tensor.FormatFloat(end.f), pyName(d))
	}
	if o := e.torchArangeScalars(start, end, acc == accumInt64); o != nil {
		return *o
	}
	if acc != accumInt64 && (math.IsNaN(xs.f) || math.IsInf(xs.f, 0) || math.IsNaN(xe.f) || math.IsInf(xe.f, 0)) {
		return e.fail(rule, tensor.Other, "RuntimeError: unsupported range: %s -> %s", tensor.FormatFloat(xs.f), tensor.FormatFloat(xe.f))
	}
	// the sign check: in the accumulate type (e4bb10d6, PyTorch 1.13) or
	// in double (later releases); the size from doubles, int64's from the
	// converted bounds
	revAcc, revDouble := xe.less(xs, acc), end.f < start.f
	sizeD := math.Ceil(end.f - start.f)
	switch {
	case revAcc && (revDouble || d == tensor.I64): // int64's size is then negative
		return e.fail(rule, tensor.Other, "RuntimeError: upper bound and larger bound inconsistent with step sign")
	case revAcc, revDouble && (d == tensor.I64 || sizeD > -1):
		return e.unsupported(pyArangeDTypeOpen, "tfuzz: torch.arange(%s, %s, dtype=%s): the releases' sign checks part", tensor.FormatFloat(start.f), tensor.FormatFloat(end.f), pyName(d))
	case revDouble, d != tensor.I64 && sizeD > math.Ldexp(1, 63):
		return e.fail(rule, tensor.Other, "RuntimeError: invalid size, possible overflow?")
	}
	n := sizeD
	if d == tensor.I64 {
		n, _ = new(big.Float).SetInt(new(big.Int).Sub(xe.i, xs.i)).Float64()
	}
	if n > tensor.MaxElements {
		return e.unsupported(notModeled, "tfuzz: arange of %g elements exceeds the case limit", n)
	}
	out := tensor.New(d, int(n))
	switch {
	case acc == accumInt64:
		for i := 0; i < out.Len(); i++ {
			v := new(big.Int).Add(xs.i, big.NewInt(int64(i)))
			if !v.IsInt64() {
				out.SetUnspecified(i) // signed overflow of the int64 accumulator
				continue
			}
			storeBig(out, i, v)
		}
	case e.p.Device == CUDA: // one element per thread: static_cast<D>(xstart + ind)
		for i := 0; i < out.Len(); i++ {
			if acc == accumFloat {
				out.SetFloat(i, add32(xs.f, float64(i)))
			} else {
				out.SetFloat(i, xs.f+float64(i))
			}
		}
	default:
		torchCPUFloatArange(out, xs.f)
	}
	return tensor.ValueOutcome(out)
}

// torchCPUFloatArange fills out (a float dtype) from the accumulated start
// xs: element 0 is D(xs + 0) on either path; a later element is fixed only
// while every start + j so far is a value of D, so that no path's rounded
// vector base differs from the exact one.
func torchCPUFloatArange(out *tensor.Tensor, xs float64) {
	exact := true
	for i := 0; i < out.Len(); i++ {
		v, ok := floatPlusIndex(xs, i, out.DType)
		exact = exact && ok
		switch {
		case i == 0:
			out.SetFloat(0, xs+0) // -0 + 0 is +0 in the accumulate type
		case exact:
			out.SetFloat(i, v)
		default:
			out.SetUnspecified(i)
		}
	}
}
