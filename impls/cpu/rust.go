package cpu

import (
	"strings"

	"github.com/tfuzz/tfuzz/tensor"
)

// The Rust frameworks: candle 0.11 (CPU backend, debug and release builds),
// burn 0.22 (Flex debug and release, ndarray) and tenferro 0.8 (traced,
// eager, direct). What they share because they are Rust lives here and in
// rust_kernels.go: integer + - * that panic on overflow in a debug build and
// wrap in release (policy rust.int.overflow-debug-panics), / and % that
// panic on a zero divisor and MIN / -1 in every build (rust.int.div-panics),
// `as` conversions (rust.as.*), and Rust literals (rust_literal.go).
//
// The families of each framework are in candle*.go, burn*.go and
// tenferro*.go. They decline (Supports false) exactly the cases whose outcome
// the model leaves unspecified as a whole (burn.unspecified,
// tenferro.unspecified) when that is decided by dtypes, shapes, attrs and
// scalars; where it depends on element values (a burn select index outside
// the dim), Eval answers with an unsupported outcome that says so.

// The profile records. They are package variables, initialized before any
// init function runs, so that the family files can attach to them in their
// own init functions whatever the order of the files.
var (
	candleCPUDebug   = &profile{name: "candle/cpu-debug", fw: fwCandle, arch: archArm64, debug: true}
	candleCPURelease = &profile{name: "candle/cpu-release", fw: fwCandle, arch: archArm64}
	burnFlexDebug    = &profile{name: "burn/flex-debug", fw: fwBurn, arch: archArm64, debug: true}
	burnFlexRelease  = &profile{name: "burn/flex-release", fw: fwBurn, arch: archArm64}
	burnNdarray      = &profile{name: "burn/ndarray", fw: fwBurn, arch: archArm64}
	tfTraced         = &profile{name: "tenferro/traced", fw: fwTenferro, arch: archArm64}
	tfEager          = &profile{name: "tenferro/eager", fw: fwTenferro, arch: archArm64}
	tfDirect         = &profile{name: "tenferro/direct", fw: fwTenferro, arch: archArm64}

	candleProfiles   = []*profile{candleCPUDebug, candleCPURelease}
	burnProfiles     = []*profile{burnFlexDebug, burnFlexRelease, burnNdarray}
	tenferroProfiles = []*profile{tfTraced, tfEager, tfDirect}
)

func init() {
	profiles = append(profiles, candleProfiles...)
	profiles = append(profiles, burnProfiles...)
	profiles = append(profiles, tenferroProfiles...)
}

// faultOverflow is a Rust integer + - * (or unary -, abs) whose exact result
// does not fit: a panic in a debug build. The bit is the engine's highest,
// kept clear of the core's fault bits.
const faultOverflow fault = 1 << 7

// Rust's panic messages (core::panicking), as the frameworks' panics print.
const (
	msgAddOverflow   = "attempt to add with overflow"
	msgSubOverflow   = "attempt to subtract with overflow"
	msgMulOverflow   = "attempt to multiply with overflow"
	msgNegOverflow   = "attempt to negate with overflow"
	msgDivZero       = "attempt to divide by zero"
	msgDivOverflow   = "attempt to divide with overflow"
	msgRemZero       = "attempt to calculate the remainder with a divisor of zero"
	msgRemOverflow   = "attempt to calculate the remainder with overflow"
	msgFloatToSigned = "Float cannot be represented in the target signed int type"
)

// overflowMsg is the debug-build panic of an overflowing op.
func overflowMsg(op opID) string {
	switch op {
	case opSub:
		return msgSubOverflow
	case opMul, opSquare:
		return msgMulOverflow
	case opNeg, opAbs:
		return msgNegOverflow
	}
	return msgAddOverflow
}

// rustName is a dtype's name in the Rust frameworks' Debug output ("F32",
// "U8", "BF16"; tenferro's complex types are C32 and C64).
func rustName(d tensor.DType) string {
	switch d {
	case tensor.Bool:
		return "Bool"
	case tensor.C64:
		return "C32"
	case tensor.C128:
		return "C64"
	}
	return strings.ToUpper(d.String())
}

// rustShape renders a shape as Rust's Debug does: [2, 3].
func rustShape(shape []int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, n := range shape {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(rustItoa(n))
	}
	b.WriteByte(']')
	return b.String()
}

// rustItoa formats a small int without fmt.
func rustItoa(n int) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var buf [20]byte
	i := len(buf)
	for n > 0 {
		i--
		buf[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		buf[i] = '-'
	}
	return string(buf[i:])
}

// rustDim resolves a possibly negative dim against rank (as Rust and Python
// frameworks alike count dims from the end).
func rustDim(dim, rank int) (int, bool) {
	if dim < 0 {
		dim += rank
	}
	return dim, dim >= 0 && dim < rank
}

// rustTensorArgs reports whether c has exactly n arguments, all valid tensors.
func rustTensorArgs(c *tensor.Case, n int) bool {
	if len(c.Args) != n {
		return false
	}
	for _, a := range c.Args {
		if a.Scalar != nil || a.Tensor == nil || !validTensor(a.Tensor) {
			return false
		}
	}
	return true
}

// rustShapeOK reports whether shape is a shape the engine can allocate.
func rustShapeOK(shape []int) bool {
	if len(shape) > tensor.MaxRank {
		return false
	}
	n := 1
	for _, s := range shape {
		if s < 0 || s > tensor.MaxElements {
			return false
		}
		n *= s
		if n > tensor.MaxElements {
			return false
		}
	}
	return true
}

// rustDense returns t's elements in row-major order, converted to dtype d
// (as promotion converts: buffer.go) in representation T. A contiguous t is
// decoded in place of a copy.
func rustDense[T number](e *Engine, t *tensor.Tensor, d tensor.DType) []T {
	src := loadInput[T](t, d)
	n := t.Len()
	if t.IsContiguous() && len(src) >= n {
		return src[:n]
	}
	l := newLayout(t.Shape, viewOf(t))
	dst := make([]T, n)
	runUnary(e, &l, dst, src, kCopy[T])
	return dst
}

// rustWords returns t's raw element words in row-major order (real dtypes).
func rustWords(t *tensor.Tensor) []uint64 {
	n := t.Len()
	if t.IsContiguous() && len(t.Data) >= n {
		return t.Data[:n]
	}
	out := make([]uint64, n)
	for i := range out {
		out[i] = t.Bits(i)
	}
	return out
}

// rustReshape returns t's elements as a contiguous tensor of the given
// shape (same element count).
func rustReshape(t *tensor.Tensor, shape []int) *tensor.Tensor {
	c := t.Clone()
	c.Shape = append([]int{}, shape...)
	return c
}

// rustCast converts t to dtype to with Rust `as` semantics (policies
// rust.as.float-to-int, rust.as.int-to-int, rust.as.int-to-float,
// rust.as.float-to-float): float -> int truncates and saturates, NaN -> 0;
// int -> int keeps the low bits; int -> f32/f64 rounds to nearest even and
// int -> f16/bf16 goes through f32 (`from_f32(v as f32)`); float -> float
// rounds once (f64 -> f16/bf16 through f32, which the model leaves open
// where it matters); -> bool is x != 0 and bool -> x is 0 or 1. Real dtypes
// only.
func rustCast(e *Engine, t *tensor.Tensor, to tensor.DType) *tensor.Tensor {
	switch kindOf(t.DType) {
	case kU8:
		return rustCastFrom[uint8](e, t, to)
	case kI8:
		return rustCastFrom[int8](e, t, to)
	case kU16:
		return rustCastFrom[uint16](e, t, to)
	case kI16:
		return rustCastFrom[int16](e, t, to)
	case kU32:
		return rustCastFrom[uint32](e, t, to)
	case kI32:
		return rustCastFrom[int32](e, t, to)
	case kU64:
		return rustCastFrom[uint64](e, t, to)
	case kI64:
		return rustCastFrom[int64](e, t, to)
	case kF32:
		return rustCastFrom[float32](e, t, to)
	}
	return rustCastFrom[float64](e, t, to)
}

func rustCastFrom[S number](e *Engine, t *tensor.Tensor, to tensor.DType) *tensor.Tensor {
	src := loadInput[S](t, t.DType)
	l := newLayout(t.Shape, viewOf(t))
	f2i := t.DType.IsFloat() && to.IsInt()
	switch {
	case to == tensor.Bool:
		dst := make([]uint8, l.n)
		runUnary(e, &l, dst, src, kToBool[S])
		return encode(e, dst, to, t.Shape)
	case kindOf(to) == kU8:
		return rustCastTo[S, uint8](e, &l, src, t.Shape, to, f2i)
	case kindOf(to) == kI8:
		return rustCastTo[S, int8](e, &l, src, t.Shape, to, f2i)
	case kindOf(to) == kU16:
		return rustCastTo[S, uint16](e, &l, src, t.Shape, to, f2i)
	case kindOf(to) == kI16:
		return rustCastTo[S, int16](e, &l, src, t.Shape, to, f2i)
	case kindOf(to) == kU32:
		return rustCastTo[S, uint32](e, &l, src, t.Shape, to, f2i)
	case kindOf(to) == kI32:
		return rustCastTo[S, int32](e, &l, src, t.Shape, to, f2i)
	case kindOf(to) == kU64:
		return rustCastTo[S, uint64](e, &l, src, t.Shape, to, f2i)
	case kindOf(to) == kI64:
		return rustCastTo[S, int64](e, &l, src, t.Shape, to, f2i)
	case kindOf(to) == kF32:
		return rustCastTo[S, float32](e, &l, src, t.Shape, to, false)
	}
	return rustCastTo[S, float64](e, &l, src, t.Shape, to, false)
}

func rustCastTo[S, D number](e *Engine, l *layout, src []S, shape []int, to tensor.DType, f2i bool) *tensor.Tensor {
	dst := make([]D, l.n)
	k := kConvert[S, D] // exact Go conversions; f16/bf16 round when encoded
	if f2i {
		k = kCastF2I[S, D](f2iSatDst) // Rust `as`: saturate at the destination, NaN -> 0
	}
	runUnary(e, l, dst, src, k)
	return encode(e, dst, to, shape)
}

// rustGeom is the geometry of a reduction of a row-major tensor over one
// dim (or all of it): outer groups of n elements inner apart.
type rustGeom struct {
	outer, n, inner int
	full            []int // the output shape with the reduced dims kept as 1
}

// rustGeomOf returns the geometry of reducing shape over dim (dim < 0: all dims).
func rustGeomOf(shape []int, dim int) rustGeom {
	g := rustGeom{outer: 1, n: 1, inner: 1, full: append([]int{}, shape...)}
	for k, s := range shape {
		switch {
		case dim < 0 || k == dim:
			g.n *= s
			g.full[k] = 1
		case k < dim:
			g.outer *= s
		default:
			g.inner *= s
		}
	}
	if dim < 0 {
		g.outer, g.inner = 1, 1
	}
	return g
}

// groups returns the number of output elements.
func (g rustGeom) groups() int { return g.outer * g.inner }

// squeezed returns the output shape without the reduced dims unless keep.
func (g rustGeom) squeezed(shape []int, dim int, keep bool) []int {
	if keep {
		return append([]int{}, g.full...)
	}
	s := []int{}
	for k, n := range shape {
		if dim >= 0 && k != dim {
			s = append(s, n)
		}
	}
	return s
}
