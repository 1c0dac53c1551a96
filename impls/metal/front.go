package metal

import (
	"fmt"
	"slices"

	"github.com/tfuzz/tfuzz/tensor"
)

// The front end: candle 0.11's Tensor methods that the catalog's ops name,
// as they run on a Metal device (candle-core/src/tensor.rs): the shape,
// dtype and empty-tensor checks done before any storage call, the scalar
// operands turned into affine or into a broadcast tensor, and the
// composite ops (pow, mean, max_all) spelled out in calls to the host.

// candleTypes are candle's dtypes that a case can hold (the F8 and dummy
// types have no case-format name).
func candleType(d tensor.DType) (mslType, bool) {
	switch d {
	case tensor.U8, tensor.U32, tensor.I16, tensor.I32, tensor.I64, tensor.BF16, tensor.F16, tensor.F32, tensor.F64:
		return mslTypeOf(d)
	}
	return 0, false
}

// evalCase evaluates c as candle/metal. Errors other than candle's own
// (a failing device) panic: they are bugs of this package or of the device.
func (h *host) evalCase(c *tensor.Case) tensor.Outcome {
	for _, a := range c.Args {
		if a.Tensor != nil {
			if _, ok := candleType(a.Tensor.DType); !ok {
				return tensor.UnsupportedOutcome("candle has no %s dtype (the trait `WithDType` is not implemented for `%s`)", a.Tensor.DType, a.Tensor.DType)
			}
			if v := a.Tensor.View; v != nil && !narrowable(v) {
				return tensor.UnsupportedOutcome("candle has no strided slice: narrow takes a start and a length, not a step")
			}
		}
	}
	op, _ := tensor.LookupOp(c.Op)
	var out devTensor
	var err error
	switch op.Class {
	case tensor.ClassBinary:
		out, err = h.frontBinary(c)
	case tensor.ClassUnary:
		out, err = h.frontUnary(c)
	case tensor.ClassCast:
		out, err = h.frontCast(c)
	case tensor.ClassReduce:
		out, err = h.frontReduce(c)
	case tensor.ClassIndexSelect:
		out, err = h.frontIndexSelect(c)
	case tensor.ClassBroadcast:
		out, err = h.frontBroadcast(c)
	case tensor.ClassWhere:
		out, err = h.frontWhere(c)
	case tensor.ClassClamp:
		out, err = h.frontClamp(c)
	case tensor.ClassFull:
		out, err = h.frontFull(c)
	case tensor.ClassCat:
		out, err = h.frontCat(c)
	case tensor.ClassSort:
		out, err = h.frontSort(c)
	case tensor.ClassMatmul:
		out, err = h.frontMatmul(c)
	default:
		return tensor.UnsupportedOutcome("metal-sim: %s is not simulated", c.Op)
	}
	if err != nil {
		return outcomeOf(err)
	}
	v, err := h.download(out)
	if err != nil {
		panic(fmt.Sprintf("metal: %s: %v", c.Describe(), err))
	}
	return tensor.ValueOutcome(v)
}

// narrowable reports whether candle's narrow can take the view's slices:
// every step is 1 (a view input is uploaded as its storage, then narrowed,
// permuted and broadcast, which change only the layout: upload).
func narrowable(v *tensor.View) bool {
	for _, s := range v.Slice {
		if s[2] != 1 {
			return false
		}
	}
	return true
}

// unsupportedErr is a program that does not compile, or an op candle lacks.
type unsupportedErr struct{ msg string }

func (e *unsupportedErr) Error() string { return e.msg }

func unsupported(format string, args ...any) error {
	return &unsupportedErr{fmt.Sprintf(format, args...)}
}

// outcomeOf turns candle's Err, panic or a compile error into an outcome.
func outcomeOf(err error) tensor.Outcome {
	switch e := err.(type) {
	case *candleErr:
		return tensor.ErrorOutcome(e.class, "%s", e.msg)
	case *candlePanic:
		return tensor.PanicOutcome("%s", e.msg)
	case *unsupportedErr:
		return tensor.UnsupportedOutcome("%s", e.msg)
	}
	panic(fmt.Sprintf("metal: device failure: %v", err))
}

// upload is Tensor::new(&data, &Device::Metal): a contiguous buffer. A
// view (a tensor with strides or an offset) uploads its whole storage and
// keeps its layout, as candle's view ops (narrow, transpose, broadcast_as)
// keep the buffer and change the layout.
func (h *host) upload(x *tensor.Tensor) (devTensor, error) {
	t, ok := candleType(x.DType)
	if !ok {
		return devTensor{}, unsupported("candle has no %s dtype", x.DType)
	}
	storage := &tensor.Tensor{DType: x.DType, Shape: []int{x.Len()}, Data: x.Data}
	shape := append([]int{}, x.Shape...)
	strides := tensor.ContiguousStrides(shape)
	if x.Strides != nil {
		storage.Shape = []int{len(x.Data)}
		strides = append([]int{}, x.Strides...)
	}
	n := storage.Len()
	data := make([]byte, n*t.size())
	for i := 0; i < n; i++ {
		var v val
		if t.isFloat() {
			v = floatVal(storage.Float(i))
		} else {
			v = intVal(storage.Bits(i))
		}
		t.encode(v, data[i*t.size():])
	}
	buf, err := h.dev.Upload(data)
	if err != nil {
		return devTensor{}, err
	}
	return devTensor{buf: buf, t: t, shape: shape, strides: strides, offset: x.Offset}, nil
}

// download reads x back row-major; undefined bytes make unspecified elements.
func (h *host) download(x devTensor) (*tensor.Tensor, error) {
	data, undef, err := h.dev.Download(x.buf)
	if err != nil {
		return nil, err
	}
	out := tensor.New(x.t.dtype(), x.shape...)
	size := x.t.size()
	for i := 0; i < out.Len(); i++ {
		at := x.offset
		rem := i
		for k := len(x.shape) - 1; k >= 0; k-- {
			at += (rem % x.shape[k]) * x.strides[k]
			rem /= x.shape[k]
		}
		if (at+1)*size > len(data) {
			return nil, fmt.Errorf("element %d at %d past a %d-byte buffer", i, at, len(data))
		}
		v := x.t.decode(data[at*size:])
		if x.t.isFloat() {
			out.SetFloat(i, v.f)
		} else {
			out.SetUint(i, v.u)
		}
		for k := at * size; undef != nil && k < (at+1)*size; k++ {
			if undef[k] {
				out.SetUnspecified(i)
				break
			}
		}
	}
	return out, nil
}

// uploadArgs uploads every tensor argument of c.
func (h *host) uploadArgs(c *tensor.Case) ([]devTensor, error) {
	xs := make([]devTensor, len(c.Args))
	for i, a := range c.Args {
		if a.Tensor == nil {
			continue
		}
		x, err := h.upload(a.Tensor)
		if err != nil {
			return nil, err
		}
		xs[i] = x
	}
	return xs, nil
}

// candleShape prints a shape as candle's Debug does: [2, 3].
func candleShape(shape []int) string { return fmt.Sprint(shapeList(shape)) }

type shapeList []int

func (s shapeList) String() string {
	out := "["
	for i, n := range s {
		if i > 0 {
			out += ", "
		}
		out += fmt.Sprint(n)
	}
	return out + "]"
}

// binaryKernels maps the catalog's arithmetic ops to candle's BinaryOp
// kernel prefixes.
var binaryKernels = map[string]string{"add": "badd", "sub": "bsub", "mul": "bmul", "div": "bdiv",
	"maximum": "bmaximum", "minimum": "bminimum"}

func isCmp(op string) bool {
	switch op {
	case "eq", "ne", "lt", "le", "gt", "ge":
		return true
	}
	return false
}

// tBinary is lhs.add(&rhs) and its siblings (binary_op! in tensor.rs):
// shapes first, an empty result returns lhs, then dtypes.
func (h *host) tBinary(op string, l, r devTensor) (devTensor, error) {
	if !slices.Equal(l.shape, r.shape) {
		return devTensor{}, errf(tensor.ShapeMismatch, "shape mismatch in %s, lhs: %s, rhs: %s", op, candleShape(l.shape), candleShape(r.shape))
	}
	if l.numel() == 0 {
		return l, nil
	}
	if l.t != r.t {
		return devTensor{}, errf(tensor.DTypeMismatch, "dtype mismatch in %s, lhs: %s, rhs: %s", op, rustDType(l.t), rustDType(r.t))
	}
	return h.binary(binaryKernels[op], l, r)
}

// tCmp is lhs.cmp(rhs, op): no empty-tensor shortcut.
func (h *host) tCmp(op string, l, r devTensor) (devTensor, error) {
	if !slices.Equal(l.shape, r.shape) {
		return devTensor{}, errf(tensor.ShapeMismatch, "shape mismatch in cmp, lhs: %s, rhs: %s", candleShape(l.shape), candleShape(r.shape))
	}
	if l.t != r.t {
		return devTensor{}, errf(tensor.DTypeMismatch, "dtype mismatch in cmp, lhs: %s, rhs: %s", rustDType(l.t), rustDType(r.t))
	}
	return h.binary(op, l, r)
}

// tAffine is Tensor::affine.
func (h *host) tAffine(x devTensor, mul, add float64) (devTensor, error) {
	if x.numel() == 0 {
		return x, nil
	}
	return h.affine(x, mul, add)
}

// tUnary is a unary_op! method (neg, abs, ...; op is candle's kernel
// name: uneg, uabs, ...).
func (h *host) tUnary(op string, x devTensor) (devTensor, error) {
	if x.numel() == 0 {
		return x, nil
	}
	return h.unary(op, x)
}

func (h *host) frontBinary(c *tensor.Case) (devTensor, error) {
	switch c.Op {
	case "floor_div":
		return devTensor{}, unsupported("candle 0.11 has no // (no floor_divide on Tensor)")
	case "rem", "fmod":
		return devTensor{}, unsupported("candle 0.11 has no remainder (no Rem for Tensor, no remainder / fmod method)")
	case "trunc_div":
		return devTensor{}, unsupported("candle has no trunc_div: its integer / truncates")
	case "bitwise_and", "bitwise_or", "bitwise_xor", "shift_left", "shift_right":
		return devTensor{}, unsupported("candle 0.11 has no bitwise ops on Tensor")
	}
	if c.Args[0].IsScalar() || c.Args[1].IsScalar() {
		return h.frontScalarBinary(c)
	}
	xs, err := h.uploadArgs(c)
	if err != nil {
		return devTensor{}, err
	}
	l, r := xs[0], xs[1]
	switch {
	case c.Op == "pow": // a.pow(&b) = b.mul(&a.log()?)?.exp()
		logl, err := h.tUnary("ulog", l)
		if err != nil {
			return devTensor{}, err
		}
		prod, err := h.tBinary("mul", r, logl)
		if err != nil {
			return devTensor{}, err
		}
		return h.tUnary("uexp", prod)
	case isCmp(c.Op):
		return h.tCmp(c.Op, l, r)
	}
	return h.tBinary(c.Op, l, r)
}

// frontScalarBinary is a binary op with a host scalar operand.
func (h *host) frontScalarBinary(c *tensor.Case) (devTensor, error) {
	left := c.Args[0].IsScalar()
	s, ti := c.Args[1].Scalar, 0
	if left {
		s, ti = c.Args[0].Scalar, 1
	}
	f64 := s.Kind == tensor.ScalarFloat && (s.Host == "" || s.Host == "f64")
	switch c.Op {
	case "add", "sub", "mul", "div":
		if !f64 {
			typ := rustScalarType(s)
			return devTensor{}, unsupported("error[E0277]: the trait bound `%s: Borrow<candle_core::Tensor>` is not satisfied (`&Tensor %s %s` needs an f64)", typ, c.Op, typ)
		}
	case "pow":
		if left || !f64 {
			return devTensor{}, unsupported("candle has only Tensor::powf(f64) for a scalar exponent")
		}
	default:
		if left {
			return devTensor{}, unsupported("a scalar has no %s method taking a Tensor", c.Op)
		}
	}
	xs, err := h.uploadArgs(c)
	if err != nil {
		return devTensor{}, err
	}
	x := xs[ti]
	v := s.Float()
	switch c.Op {
	case "add": // bin_trait!: affine(mul, add)
		return h.tAffine(x, 1, v)
	case "sub":
		if left { // f64 - T = rhs.affine(-1, lhs)
			return h.tAffine(x, -1, v)
		}
		return h.tAffine(x, 1, -v)
	case "mul":
		return h.tAffine(x, v, 0)
	case "div":
		if left { // f64 / T = rhs.recip()? * lhs
			r, err := h.tUnary("urecip", x)
			if err != nil {
				return devTensor{}, err
			}
			return h.tAffine(r, v, 0)
		}
		return h.tAffine(x, 1/v, 0)
	case "pow":
		if x.numel() == 0 {
			return x, nil
		}
		return h.powf(x, v)
	}
	if isCmp(c.Op) {
		r, err := h.scalarAs(x, s)
		if err != nil {
			return devTensor{}, err
		}
		return h.tCmp(c.Op, x, r)
	}
	return h.tMaxMin(c.Op, x, c.Args[1])
}

// scalarAs is a host scalar operand of x as candle makes it (TensorOrScalar
// in binary_op_scalar! and cmp): Tensor::new(s, &Cpu).to_dtype(x's dtype),
// moved to the device and broadcast to x's shape.
func (h *host) scalarAs(x devTensor, s *tensor.Scalar) (devTensor, error) {
	hs, err := parseRustScalar(s)
	if err != nil {
		return devTensor{}, err
	}
	one, err := h.upload(hs.as(x.t.dtype()))
	if err != nil {
		return devTensor{}, err
	}
	return devTensor{buf: one.buf, t: x.t, shape: x.shape, strides: make([]int, len(x.shape))}, nil
}

// unaryKernels maps the catalog's unary ops to candle's UnaryOp kernels.
var unaryKernels = map[string]string{"neg": "uneg", "abs": "uabs", "sign": "usign", "sqrt": "usqrt",
	"exp": "uexp", "floor": "ufloor", "ceil": "uceil", "round": "uround", "square": "usqr"}

func (h *host) frontUnary(c *tensor.Case) (devTensor, error) {
	k, ok := unaryKernels[c.Op]
	if !ok {
		return devTensor{}, unsupported("candle 0.11 has no %s on Tensor", c.Op)
	}
	x, err := h.upload(c.Args[0].Tensor)
	if err != nil {
		return devTensor{}, err
	}
	return h.tUnary(k, x)
}

// frontCast is Tensor::to_dtype (the same dtype returns the tensor).
func (h *host) frontCast(c *tensor.Case) (devTensor, error) {
	if c.Attrs.Mode == "convert" {
		return devTensor{}, unsupported("candle has no checked convert; only to_dtype")
	}
	to, ok := candleType(c.Attrs.To)
	if !ok {
		return devTensor{}, unsupported("candle has no DType for %s", c.Attrs.To)
	}
	x, err := h.upload(c.Args[0].Tensor)
	if err != nil {
		return devTensor{}, err
	}
	if x.t == to {
		return x, nil
	}
	return h.toDType(x, to)
}

// dimIndex is Dim::to_index: a dim in [-rank, rank), negative from the end.
func dimIndex(dim, rank int, op string, shape []int) (int, error) {
	d := dim
	if d < 0 {
		d += rank
	}
	if d < 0 || d >= rank {
		return 0, errf(tensor.IndexOutOfRange, "%s: dimension index %d out of range for shape %s", op, dim, candleShape(shape))
	}
	return d, nil
}

// squeeze drops the dims in ds from x's shape (the reduced dims of size 1).
func squeeze(x devTensor, ds []int) devTensor {
	drop := map[int]bool{}
	for _, d := range ds {
		drop[d] = true
	}
	var shape, strides []int
	for k := range x.shape {
		if !drop[k] {
			shape, strides = append(shape, x.shape[k]), append(strides, x.strides[k])
		}
	}
	if shape == nil {
		shape, strides = []int{}, []int{}
	}
	return devTensor{buf: x.buf, t: x.t, shape: shape, strides: strides, offset: x.offset}
}

func (h *host) frontReduce(c *tensor.Case) (devTensor, error) {
	op, a := c.Op, c.Attrs
	if op == "prod" {
		return devTensor{}, unsupported("candle 0.11 has no prod on Tensor")
	}
	x, err := h.upload(c.Args[0].Tensor)
	if err != nil {
		return devTensor{}, err
	}
	keep := a.KeepDim()
	if a.Dim == nil {
		switch {
		case op == "argmax" || op == "argmin":
			return devTensor{}, unsupported("candle has no %s over all elements", op)
		case op == "max" || op == "min":
			if keep {
				return devTensor{}, unsupported("candle has no keepdim form of %s_all", op)
			}
			if len(x.shape) == 0 { // max_all of a rank-0 tensor returns it
				return x, nil
			}
			flat := devTensor{buf: x.buf, t: x.t, shape: []int{x.numel()}, strides: []int{1}, offset: x.offset} // flatten_all of a contiguous x
			return h.reduceDims(op, flat, []int{0}, false)
		}
		all := make([]int, len(x.shape))
		for k := range all {
			all[k] = k
		}
		return h.sumOrMean(op, x, all, keep)
	}
	d, err := dimIndex(*a.Dim, len(x.shape), op, x.shape)
	if err != nil {
		return devTensor{}, err
	}
	if op == "sum" || op == "mean" {
		return h.sumOrMean(op, x, []int{d}, keep)
	}
	return h.reduceDims(op, x, []int{d}, keep)
}

// reduceDims is reduce_impl / sum_impl: the storage reduction, then the
// reduced dims squeezed unless keepdim.
func (h *host) reduceDims(op string, x devTensor, ds []int, keep bool) (devTensor, error) {
	out, err := h.reduceOp(op, x, ds)
	if err != nil || keep {
		return out, err
	}
	return squeeze(out, ds), nil
}

// sumOrMean is sum_impl, and mean = sum_impl(...) * (1 / n): an affine.
func (h *host) sumOrMean(op string, x devTensor, ds []int, keep bool) (devTensor, error) {
	s, err := h.reduceDims(reduceSum, x, ds, keep)
	if err != nil || op == "sum" {
		return s, err
	}
	n := 1
	for _, d := range ds {
		n *= x.shape[d]
	}
	return h.tAffine(s, 1/float64(n), 0)
}

// frontIndexSelect is src.index_select(&ids, dim).
func (h *host) frontIndexSelect(c *tensor.Case) (devTensor, error) {
	xs, err := h.uploadArgs(c)
	if err != nil {
		return devTensor{}, err
	}
	src, ids := xs[0], xs[1]
	dim := 0
	if c.Attrs.Dim != nil {
		dim = *c.Attrs.Dim
	}
	d, err := dimIndex(dim, len(src.shape), "index-select", src.shape)
	if err != nil {
		return devTensor{}, err
	}
	if len(ids.shape) != 1 {
		return devTensor{}, errf(tensor.ShapeMismatch, "shape mismatch in index-select, lhs: %s, rhs: %s", candleShape(src.shape), candleShape(ids.shape))
	}
	return h.indexSelect(src, ids, d)
}
