package metal

import (
	"regexp"
	"slices"
	"strings"

	"github.com/tfuzz/tfuzz/tensor"
)

// The front end of the ops added 2026-12 that candle runs on Metal: the
// broadcast_* methods, where_cond, clamp and Tensor::full (candle-core
// src/tensor.rs at 2a13b0f3).

// broadcastShape is Shape::broadcast_shape_binary_op (shape.rs:191-225):
// the shapes aligned at their last dims, a missing dim counting as 1; two
// dims agree when equal or when one of them is 1, which the other then
// replaces. The rule is symmetric, so the longer shape is the start.
func broadcastShape(a, b []int) ([]int, bool) {
	if len(a) < len(b) {
		a, b = b, a
	}
	out := append([]int{}, a...)
	lead := len(a) - len(b)
	for i, y := range b {
		switch x := out[lead+i]; {
		case x == 1:
			out[lead+i] = y
		case y != 1 && y != x:
			return nil, false
		}
	}
	return out, true
}

// broadcastAs is Tensor::broadcast_as for a shape broadcastShape gave: the
// same buffer, stride 0 for the added leading dims and for each dim of
// size 1 stretched, the own stride where the dims agree (layout.rs:210-243).
func broadcastAs(x devTensor, shape []int) devTensor {
	added := len(shape) - len(x.shape)
	strides := make([]int, len(shape))
	for k := range x.shape {
		if x.shape[k] == shape[added+k] {
			strides[added+k] = x.strides[k]
		}
	}
	return devTensor{buf: x.buf, t: x.t, shape: append([]int{}, shape...), strides: strides, offset: x.offset}
}

// frontBroadcast is a.broadcast_OP(&b) (broadcast_binary_op!, tensor.rs:
// 137-153): the broadcast shape, each side that differs from it
// broadcast_as'd, then the plain op (add, ..., maximum, minimum) with its
// own checks.
func (h *host) frontBroadcast(c *tensor.Case) (devTensor, error) {
	xs, err := h.uploadArgs(c)
	if err != nil {
		return devTensor{}, err
	}
	l, r := xs[0], xs[1]
	shape, ok := broadcastShape(l.shape, r.shape)
	if !ok {
		return devTensor{}, errf(tensor.ShapeMismatch, "shape mismatch in %s, lhs: %s, rhs: %s", c.Op, candleShape(l.shape), candleShape(r.shape))
	}
	if !slices.Equal(shape, l.shape) {
		l = broadcastAs(l, shape)
	}
	if !slices.Equal(shape, r.shape) {
		r = broadcastAs(r, shape)
	}
	return h.tBinary(tensor.BroadcastBase(c.Op), l, r)
}

// frontWhere is cond.where_cond(&on_true, &on_false) (tensor.rs:1591-1604,
// storage.rs:601-612): tensors only, both of the condition's shape, of one
// dtype, then MetalStorage::where_cond.
func (h *host) frontWhere(c *tensor.Case) (devTensor, error) {
	for _, a := range c.Args {
		if a.IsScalar() {
			return devTensor{}, unsupported("where_cond takes &Tensor operands, not a %s scalar (E0308)", a.Scalar.Kind)
		}
	}
	xs, err := h.uploadArgs(c)
	if err != nil {
		return devTensor{}, err
	}
	cond, t, f := xs[0], xs[1], xs[2]
	for _, v := range []devTensor{t, f} {
		if !slices.Equal(cond.shape, v.shape) {
			return devTensor{}, errf(tensor.ShapeMismatch, "shape mismatch in where_cond, lhs: %s, rhs: %s", candleShape(cond.shape), candleShape(v.shape))
		}
	}
	if t.t != f.t {
		return devTensor{}, errf(tensor.DTypeMismatch, "dtype mismatch in where, lhs: %s, rhs: %s", rustDType(t.t), rustDType(f.t))
	}
	return h.whereCond(cond, t, f)
}

// frontClamp is t.clamp(min, max) = t.maximum(min)?.minimum(max)
// (tensor.rs:1177-1180): each bound a tensor or a WithDType scalar, both
// required. A bound that does not compile makes the whole program not
// compile, whatever the other bound would do at run time.
func (h *host) frontClamp(c *tensor.Case) (devTensor, error) {
	lo, hi := c.Args[1], c.Args[2]
	if lo.IsNull() || hi.IsNull() {
		return devTensor{}, unsupported("candle's clamp takes both bounds (no Option)")
	}
	for _, b := range []tensor.Arg{lo, hi} {
		if b.IsScalar() {
			if _, err := parseRustScalar(b.Scalar); err != nil {
				return devTensor{}, err
			}
		}
	}
	x, err := h.upload(c.Args[0].Tensor)
	if err != nil {
		return devTensor{}, err
	}
	if x, err = h.tMaxMin("maximum", x, lo); err != nil {
		return devTensor{}, err
	}
	return h.tMaxMin("minimum", x, hi)
}

// tMaxMin is x.maximum(b) or x.minimum(b) (binary_op_scalar!, tensor.rs:
// 110-133) with b a tensor or a host scalar.
func (h *host) tMaxMin(op string, x devTensor, b tensor.Arg) (devTensor, error) {
	if b.IsScalar() {
		r, err := h.scalarAs(x, b.Scalar)
		if err != nil {
			return devTensor{}, err
		}
		if x.numel() == 0 {
			return x, nil
		}
		return h.binary(binaryKernels[op], x, r)
	}
	y, err := h.upload(b.Tensor)
	if err != nil {
		return devTensor{}, err
	}
	return h.tBinary(op, x, y)
}

// frontFull is Tensor::full(value, shape, &Device::Metal) (tensor.rs:
// 440-451): a buffer of the value's Rust type, then const_set over its
// contiguous layout.
func (h *host) frontFull(c *tensor.Case) (devTensor, error) {
	lit, err := fullScalar(*c.Attrs.Value, c.Attrs.DType)
	if err != nil {
		return devTensor{}, err
	}
	s, err := parseRustScalar(lit)
	if err != nil {
		return devTensor{}, err
	}
	t, _ := mslTypeOf(s.typ) // parseRustScalar admits candle's types only
	out, err := h.alloc(t, c.Attrs.Shape)
	if err != nil {
		return out, err
	}
	one := s.as(s.typ)
	v := intVal(one.Bits(0))
	if t.isFloat() {
		v = floatVal(one.Float(0))
	}
	return out, h.constSet(out, v)
}

// rustNumber is a Rust numeric literal: a sign, digits (a fraction and an
// exponent make it a float), and a type suffix.
var rustNumber = regexp.MustCompile(`^\s*(-?)\s*([0-9][0-9_]*(?:\.(?:[0-9][0-9_]*(?:[eE][+-]?[0-9][0-9_]*)?)?|[eE][+-]?[0-9][0-9_]*)?)([A-Za-z][A-Za-z0-9]*)?\s*$`)

// fullScalar is full's value as the host scalar of a Rust program: the
// literal text, with the dtype attr written as its suffix when it has none
// (every Rust numeric suffix starts with i, u or f, and "inf" is no
// suffix). An integer literal with a float suffix (7f32) is a float; a
// float literal with an integer suffix does not compile; other text keeps
// its text and fails to type.
func fullScalar(text string, d tensor.DType) (*tensor.Scalar, error) {
	if d.Valid() && (!strings.ContainsAny(text, "iuf") || strings.HasSuffix(text, "inf")) {
		text += d.String()
	}
	if text == "true" || text == "false" {
		return &tensor.Scalar{Text: text, Kind: tensor.ScalarBool}, nil
	}
	m := rustNumber.FindStringSubmatch(text)
	if m == nil {
		return &tensor.Scalar{Text: text, Kind: tensor.ScalarFloat, Host: "f64"}, nil
	}
	digits, suffix := m[1]+m[2], m[3]
	float := strings.ContainsAny(m[2], ".eE")
	switch {
	case suffix == "f32" || suffix == "f64":
		if !float {
			digits += ".0" // 7f32 is the float 7
		}
		float = true
	case float && suffix != "":
		return nil, unsupported("does not compile: %q: a float literal with the suffix %s", text, suffix)
	}
	kind := tensor.ScalarInt
	if float {
		kind = tensor.ScalarFloat
	}
	return &tensor.Scalar{Text: digits, Kind: kind, Host: suffix}, nil
}
