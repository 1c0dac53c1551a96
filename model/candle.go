package model

import (
	"fmt"
	"strings"

	"github.com/tfuzz/tfuzz/tensor"
)

// candle 0.11: the CPU backend (a debug and a release build) and the Metal
// backend. candle has no type promotion and no broadcasting in its
// operators, routes every f64 scalar operand through `affine`, and leaves
// integer overflow to Rust (a panic in debug builds, wrapping in release).
// The CPU profiles stand for the seeds' build (features accelerate, an M2
// Max), the Metal profile for both builds (its kernels have no overflow
// checks). Sources: seeds 000 and 003; source-facts.md rows 1-10 and "candle,
// CPU" 1-10, read at candle 2a13b0f3 (0.11.0 + 19).

func init() {
	for _, p := range []*Profile{
		{Name: "candle/cpu-debug", Framework: Candle, Device: CPU, Arch: Arm64, Debug: true,
			Doc:      "candle 0.11 CPU backend, debug build (overflow checks on)",
			Evidence: "seeds 000, 003 (candle CPU, M2 Max, accelerate); source-facts.md (candle rows)"},
		{Name: "candle/cpu-release", Framework: Candle, Device: CPU, Arch: Arm64,
			Doc:      "candle 0.11 CPU backend, release build",
			Evidence: "seeds 000, 003 (candle CPU, M2 Max, accelerate); source-facts.md (candle rows)"},
		{Name: "candle/metal", Framework: Candle, Device: Metal, Arch: Arm64,
			Doc:      "candle 0.11 Metal backend (debug and release alike)",
			Evidence: "seeds 000, 003 (candle Metal rows); source-facts.md rows 4, 5a-5c, candle CPU 10"},
	} {
		p.eval = evalCandle
		register(p)
	}
}

var (
	candleDTypes = newRule("candle.dtypes",
		"candle's dtypes are U8 U32 I16 I32 I64 BF16 F16 F32 F64 (and raw-byte F8 types): an i8, u16, u64, bool or complex tensor cannot be made (no WithDType impl)",
		"source-facts #9; seed 003 §字面量决定 dtype")
	candleNoOp = newRule("candle.no-such-op",
		"candle 0.11's Tensor has no //, %, fmod, trunc_div (its integer / is the catalog's div), bitwise ops, trunc, bitwise_not, prod, argmax over all elements, nor a checked convert",
		"seed 000 §除法：只有截断 (no //, no Rem); source-facts #10; candle-core/src/tensor.rs method list")
	candleNoDefaultDType = newRule("candle.create.no-default-dtype",
		"candle has no default dtype: zeros/ones need an explicit DType",
		"seed 003 §字面量决定 dtype (prose)")
	candleNew = newRule("candle.create.new",
		"Tensor::new takes a scalar, nested arrays up to rank 4 or Vec, Vec<Vec>, Vec<Vec<Vec>> of one WithDType type; the dtype is the Rust element type; ragged arrays do not compile, a ragged Vec<Vec> is an Err (\"two elements have different len 2 1\"), an empty outer Vec<Vec> an Err (\"empty array\")",
		"seed 003 §字面量决定 dtype (ragged vec row); candle-core/src/device.rs NdArray impls")
	candleArange = newRule("candle.create.arange",
		"Tensor::arange(start, end) has the literals' common type, and pushes start, start+1, ... while current < end, adding 1 in the element type (float rounding accumulates)",
		"seed 003 §字面量决定 dtype (arange(0., 3.) F64, arange(0f32, 3.) F32, arange(0u32, 3) U32); tensor.rs arange_step")
	candleFromVec = newOpenRule("candle.create.from-vec-unchecked",
		"Tensor::from_vec / from_slice in candle 0.11.0 (the release these profiles stand for) do not compare the data length with the shape: too few elements give a tensor whose first read panics on the CPU and reads past the buffer on Metal (the missing elements are unspecified); too many give a tensor over the first ones. (Fixed after the release: from 94c83c4b, in 2a13b0f3 = 0.11.0 + 19, into_shape returns Err(ShapeMismatch) \"Shape mismatch, got buffer of size 5 which is compatible with shape [2, 3]\")",
		"candle 0.11.0 (31f35b14) candle-core/src/shape.rs:474-477 (into_shape ignores _el_count), candle-core/src/tensor.rs:518-528 (from_vec_impl); seed 003 §从 Vec、切片、迭代器建 (5 values as (2, 3): Ok, CPU panics at the first read, Metal reads past the end); the check: candle 94c83c4b (#3813) candle-core/src/shape.rs:474-485, error.rs:72")
	candleToHost = newRule("candle.to-host.checked",
		"to_scalar / to_vec1 / to_vec2 / to_vec3 check the rank first (\"unexpected rank, expected: 2, got: 1 ([3])\") and then the element type (\"unexpected dtype, expected: F64, got: F32\"), converting nothing; there is no to_vec4",
		"seed 003 §读回主机：类型要自己写对; tensor.rs to_vec1/to_vec2/to_scalar")
	candleDimRange = newRule("candle.dim-out-of-range",
		"a dim outside the tensor's rank is an Err (DimOutOfRange); negative dims are spelled D::Minus(n)",
		"candle-core/src/shape.rs Dim::to_index (no seed row)")
)

// evalCandle dispatches a case to the candle op families.
func evalCandle(e *evaluation) tensor.Outcome {
	for _, a := range e.c.Args {
		if a.Tensor != nil && !candleHasDType(a.Tensor.DType) {
			return e.unsupported(candleDTypes, "candle has no %s dtype (the trait `WithDType` is not implemented for `%s`)", a.Tensor.DType, a.Tensor.DType)
		}
	}
	if out, ok := evalCandleNew(e); ok {
		return out
	}
	switch e.op().Class {
	case tensor.ClassBinary:
		return e.candleBinary()
	case tensor.ClassUnary:
		return e.candleUnary()
	case tensor.ClassCast:
		return e.candleCast()
	case tensor.ClassReduce:
		return e.candleReduce()
	case tensor.ClassCumsum:
		return e.candleCumsum()
	case tensor.ClassIndexSelect:
		return e.candleIndexSelect()
	case tensor.ClassFromLiteral:
		return e.candleFromLiteral(*e.c.Attrs.Literal)
	case tensor.ClassArange:
		return e.candleArange()
	case tensor.ClassZeros:
		return e.candleZeros()
	case tensor.ClassFromVec:
		return e.candleFromVec()
	case tensor.ClassToHost:
		return e.candleToHost()
	}
	return e.unsupported(noSuchOp, "candle has no %s", e.c.Op)
}

func candleHasDType(d tensor.DType) bool {
	switch d {
	case tensor.U8, tensor.U32, tensor.I16, tensor.I32, tensor.I64, tensor.BF16, tensor.F16, tensor.F32, tensor.F64:
		return true
	}
	return false
}

// metal reports whether the profile runs candle's Metal kernels.
func (e *evaluation) candleOnMetal() bool { return e.p.Device == Metal }

// candleDim resolves the dim attr against rank.
func (e *evaluation) candleDim(dim, rank int, op string, shape []int) (int, *tensor.Outcome) {
	d, ok := normalizeDim(dim, rank)
	if !ok {
		out := e.fail(candleDimRange, tensor.IndexOutOfRange, "%s: dimension index %d out of range for shape %v", op, dim, shape)
		return 0, &out
	}
	return d, nil
}

// rustLitCompileError is the unsupported outcome of a literal rustc rejects.
func (e *evaluation) rustLitCompileError(msg string) tensor.Outcome {
	return e.unsupported(rustLiteralTyping, "does not compile: %s", msg)
}

// candleFromLiteral is Tensor::new(&literal, &dev).
func (e *evaluation) candleFromLiteral(text string) tensor.Outcome {
	lit, err := parseRustLiteral(text)
	if err != nil {
		return e.rustLitCompileError(fmt.Sprintf("%q is not a Rust literal (%v)", text, err))
	}
	e.use(rustLiteralTyping)
	e.use(candleNew)
	rank := len(lit.shape)
	switch {
	case lit.compile != "":
		return e.rustLitCompileError(lit.compile)
	case len(lit.elems) == 0:
		return e.rustLitCompileError("type annotations needed for an empty literal (E0282)")
	case lit.ragged && !lit.vec:
		return e.rustLitCompileError("mismatched types: arrays of different lengths (E0308)")
	case lit.vec && rank > 3, !lit.vec && rank > 4:
		return e.unsupported(candleNew, "the trait `NdArray` is not implemented for a rank-%d literal", rank)
	}
	d, ok := rustTypeDType(lit.typ)
	if !ok || !candleHasDType(d) {
		return e.unsupported(candleDTypes, "the trait `WithDType` is not implemented for `%s`", lit.typ)
	}
	if lit.vec && rank >= 2 {
		if out, bad := e.candleVecShapeError(lit.root); bad {
			return out
		}
	}
	return tensor.ValueOutcome(rustLitTensor(lit.elems, lit.shape, d))
}

// candleVecShapeError is NdArray::shape of a nested Vec: an empty outer Vec
// and rows of different lengths are errors.
func (e *evaluation) candleVecShapeError(root *rustLitNode) (tensor.Outcome, bool) {
	if len(root.Items) == 0 {
		return e.fail(candleNew, tensor.ShapeMismatch, "empty array"), true
	}
	first, _ := root.Items[0].Shape()
	for _, it := range root.Items {
		s, ragged := it.Shape()
		if ragged || !sameShape(s, first) {
			if len(first) == 1 {
				return e.fail(candleNew, tensor.ShapeMismatch, "two elements have different len %d %d", first[0], s[0]), true
			}
			return e.fail(candleNew, tensor.ShapeMismatch, "two elements have different shapes %v %v", s, first), true
		}
	}
	return tensor.Outcome{}, false
}

// candleArange is Tensor::arange(start, end, &dev).
func (e *evaluation) candleArange() tensor.Outcome {
	start := "0"
	if e.c.Attrs.Start != nil {
		start = *e.c.Attrs.Start
	}
	var elems []rustLitElem
	for _, text := range []string{start, *e.c.Attrs.End} {
		lit, err := parseRustLiteral(text)
		if err != nil || lit.root.List {
			return e.rustLitCompileError(fmt.Sprintf("%q is not a scalar Rust literal", text))
		}
		elems = append(elems, lit.elems[0])
	}
	e.use(rustLiteralTyping)
	e.use(candleArange)
	typ, msg := rustLitType(elems, "")
	if msg != "" {
		return e.rustLitCompileError(msg)
	}
	d, ok := rustTypeDType(typ)
	if !ok || !candleHasDType(d) {
		return e.unsupported(candleDTypes, "the trait `WithDType` is not implemented for `%s`", typ)
	}
	ends := rustLitTensor(elems, []int{2}, d)
	values, ok := rustArangeValues(ends, d)
	if !ok {
		return e.unsupported(notModeled, "tfuzz: arange of more than %d elements is not modeled", tensor.MaxElements)
	}
	return tensor.ValueOutcome(values)
}

// rustArangeValues runs `while current < end { push(current); current += 1 }`
// in the dtype d; ok is false past the model's size limit, and for a float
// loop that stops advancing (the process runs out of memory: not modeled).
func rustArangeValues(ends *tensor.Tensor, d tensor.DType) (*tensor.Tensor, bool) {
	var vals []float64
	var ints []uint64
	if d.IsFloat() {
		cur, end := ends.Float(0), ends.Float(1)
		for cur < end {
			if len(vals) >= tensor.MaxElements {
				return nil, false
			}
			vals = append(vals, cur)
			next := rustFloatOp("add", cur, 1, d)
			if next == cur { // past 2^24 (f32) or 2^53 (f64) the loop never ends: the Vec grows until memory runs out
				return nil, false
			}
			cur = next
		}
	} else {
		cur, end := ends.Uint(0), ends.Uint(1)
		for intLess(cur, end, d) {
			if len(ints) >= tensor.MaxElements {
				return nil, false
			}
			ints = append(ints, cur)
			cur++
		}
	}
	out := tensor.New(d, max(len(vals), len(ints)))
	for i, v := range vals {
		out.SetFloat(i, v)
	}
	for i, v := range ints {
		out.SetUint(i, v)
	}
	return out, true
}

// candleZeros is Tensor::zeros(shape, dtype, &dev).
func (e *evaluation) candleZeros() tensor.Outcome {
	d := e.c.Attrs.DType
	if !d.Valid() {
		return e.unsupported(candleNoDefaultDType, "candle has no default dtype: Tensor::zeros needs an explicit DType")
	}
	if !candleHasDType(d) {
		return e.unsupported(candleDTypes, "candle has no %s dtype", d)
	}
	return tensor.ValueOutcome(tensor.New(d, e.c.Attrs.Shape...))
}

// candleFromVec is Tensor::from_vec(v, shape, &dev) without the length check.
func (e *evaluation) candleFromVec() tensor.Outcome {
	data := e.c.Args[0].Tensor
	shape := e.c.Attrs.Shape
	n, have := tensor.NumElements(shape), data.Len()
	e.use(candleFromVec)
	if n > have && !e.candleOnMetal() {
		return tensor.PanicOutcome("range end index %d out of range for slice of length %d (from_vec did not check the length)", n, have)
	}
	out := tensor.New(data.DType, shape...)
	for i := 0; i < n; i++ {
		if i >= have {
			out.SetUnspecified(i)
			continue
		}
		out.SetBits(i, data.Bits(i))
	}
	return tensor.ValueOutcome(out)
}

// candleToHost is to_scalar / to_vec1 / to_vec2 / to_vec3::<T>().
func (e *evaluation) candleToHost() tensor.Outcome {
	t := e.c.Args[0].Tensor
	want := e.c.Attrs.DType
	rank := t.Rank()
	if e.c.Attrs.Rank != nil {
		rank = *e.c.Attrs.Rank
	}
	if rank > 3 {
		return e.unsupported(candleToHost, "candle has no to_vec%d", rank)
	}
	if !candleHasDType(want) {
		return e.unsupported(candleDTypes, "the trait `WithDType` is not implemented for `%s`", want)
	}
	if rank != t.Rank() {
		return e.fail(candleToHost, tensor.ShapeMismatch, "unexpected rank, expected: %d, got: %d (%s)", rank, t.Rank(), candleShape(t.Shape))
	}
	if want != t.DType {
		return e.fail(candleToHost, tensor.DTypeMismatch, "unexpected dtype, expected: %s, got: %s", rustName(want), rustName(t.DType))
	}
	e.use(candleToHost)
	return tensor.ValueOutcome(t.Clone())
}

// candleShape renders a shape as candle's Debug does: [2, 3].
func candleShape(shape []int) string {
	parts := make([]string, len(shape))
	for i, n := range shape {
		parts[i] = itoa(n)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
