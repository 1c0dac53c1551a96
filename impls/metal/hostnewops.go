package metal

import (
	"fmt"

	"github.com/tfuzz/tfuzz/tensor"
)

// The host of the ops added 2026-12 that reach kernels of their own:
// MetalStorage::where_cond (ternary.metal) and const_set (unary.metal's
// const_set_*), read at candle 2a13b0f3.

// whereKernels are the (condition, value) pairs MetalStorage::where_cond
// names a kernel for (metal_backend/mod.rs:873-881); ternary.metal has 18
// kernels, the host reaches these seven.
var whereKernels = map[[2]mslType]string{
	{tUchar, tFloat}: "where_u8_f32", {tUint, tFloat}: "where_u32_f32", {tUchar, tBfloat}: "where_u8_bf16",
	{tUchar, tHalf}: "where_u8_f16", {tUchar, tLong}: "where_u8_i64", {tUchar, tUint}: "where_u8_u32",
	{tUchar, tUchar}: "where_u8_u8",
}

// whereCond is MetalStorage::where_cond (metal_backend/mod.rs:846-906):
// the output has on_true's shape and dtype, an on_true and on_false of
// different dtypes bail, then the kernel name, then call_where_cond
// (kernels/ternary.rs:9-65): the three layouts' strides and contiguity,
// tiles of the value dtype split by linear_split (zero elements divide by
// zero after the pipeline is loaded).
func (h *host) whereCond(cond, t, f devTensor) (devTensor, error) {
	out, err := h.alloc(t.t, t.shape)
	if err != nil {
		return out, err
	}
	if t.t != f.t {
		return out, errf(tensor.DTypeMismatch, "Invalid where: different dtypes for values %s != %s", rustDType(t.t), rustDType(f.t))
	}
	name, ok := whereKernels[[2]mslType{cond.t, t.t}]
	if !ok {
		return out, errf(tensor.UnsupportedDType, "Metal where_cond %s %s not implemented", rustDType(cond.t), rustDType(t.t))
	}
	n := t.numel()
	args := []Arg{SizeT(n), SizeT(len(t.shape)), sizeTs(t.shape), sizeTs(cond.strides), sizeTs(t.strides), sizeTs(f.strides),
		cond.arg(), t.arg(), f.arg(), out.arg(), Bool(cond.contiguous()), Bool(t.contiguous()), Bool(f.contiguous())}
	return out, h.dispatchLinear(name, args, tiles(n, t.t))
}

// constSet is MetalStorage::const_set of value on x's layout
// (metal_backend/mod.rs:457-546): the (dtype, scalar) match first (an i16
// or i32 storage has no arm: "dtype mismatch, expected I32, got I32(7)"),
// then f64 bails, then const_set_T over tiles of a contiguous layout
// (kernels/unary.rs:79-104) or const_set_T_strided over one thread per
// element. value is a value of x's dtype.
func (h *host) constSet(x devTensor, value val) error {
	switch x.t {
	case tShort, tInt:
		return errf(tensor.UnsupportedDType, "dtype mismatch, expected %s, got %s(%s)", rustDType(x.t), rustDType(x.t), rustIntDebug(x.t, value))
	case tDouble:
		return errf(tensor.UnsupportedDType, "unsupported const-set f64")
	}
	bytes := make([]byte, x.t.size())
	x.t.encode(value, bytes)
	name := "const_set_" + x.t.String()
	if x.contiguous() {
		return h.dispatchLinear(name, []Arg{SizeT(x.numel()), {Bytes: bytes}, x.arg()}, tiles(x.numel(), x.t))
	}
	return h.dispatchLinear(name+"_strided", []Arg{SizeT(x.numel()), SizeT(len(x.shape)), sizeTs(x.shape), sizeTs(x.strides),
		{Bytes: bytes}, x.arg()}, x.numel())
}

// rustIntDebug prints a value of the signed integer type t as Rust's
// Debug does.
func rustIntDebug(t mslType, v val) string { return fmt.Sprint(t.signed(v.u)) }
