package metal

import (
	"fmt"
	"math/bits"

	"github.com/tfuzz/tfuzz/tensor"
)

// The host: what candle 0.11's MetalStorage does for each op before and
// around its kernel (candle-core/src/metal_backend/mod.rs and the call_*
// functions of candle-metal-kernels, read at 2a13b0f3): which kernel name
// it builds, which dtypes it refuses before loading a kernel, the grid it
// dispatches, and the arithmetic on sizes that panics. The same code drives
// the simulated device and, on macOS, the real one.

// devTensor is a tensor on the device: a buffer with candle's Layout (a
// shape, strides and a start offset, in elements).
type devTensor struct {
	buf     Buffer
	t       mslType
	shape   []int
	strides []int
	offset  int
}

func (x devTensor) numel() int { return tensor.NumElements(x.shape) }

// arg binds x's buffer from its start offset, as candle's buffer_o does.
func (x devTensor) arg() Arg { return BufAt(x.buf, x.offset*x.t.size()) }

// contiguous is candle's Shape::is_contiguous(stride): each dim's stride is
// the number of elements after it, except that dims of size 1 may have any
// stride.
func isContiguous(shape, strides []int) bool {
	for k, n := range shape {
		if n > 1 && strides[k] != tensor.NumElements(shape[k+1:]) {
			return false
		}
	}
	return true
}

func (x devTensor) contiguous() bool { return isContiguous(x.shape, x.strides) }

// layoutWord names the kernel table candle's host picks for x's layout, as
// its "not implemented" messages do (metal_backend/mod.rs:144, :168, :205,
// :229 at 2a13b0f3: "Metal contiguous affine", "Metal strided powf").
func layoutWord(x devTensor) string {
	if x.contiguous() {
		return "contiguous"
	}
	return "strided"
}

// layoutClass is how candle's binary dispatch sees an operand's layout:
// 's' scalar-like (Layout::is_scalar_like: every dim 1, or every stride 0,
// as a broadcast scalar has), 'c' contiguous, 'x' any other stride.
func (x devTensor) layoutClass() byte {
	ones, zeros := 0, 0
	for k, n := range x.shape {
		if n == 1 {
			ones++
		}
		if x.strides[k] == 0 {
			zeros++
		}
	}
	switch rank := len(x.shape); {
	case ones == rank || zeros == rank:
		return 's'
	case x.contiguous():
		return 'c'
	}
	return 'x'
}

// candleErr is an Err that candle returns.
type candleErr struct {
	class tensor.ErrorClass
	msg   string
}

func (e *candleErr) Error() string { return e.msg }

// candlePanic is a Rust panic inside candle (not an Err: `?` cannot catch it).
type candlePanic struct{ msg string }

func (e *candlePanic) Error() string { return "panic: " + e.msg }

func errf(class tensor.ErrorClass, format string, args ...any) error {
	return &candleErr{class, fmt.Sprintf(format, args...)}
}

// errDivZero is Rust's panic on an integer division by zero, which candle's
// size arithmetic hits for zero-element launches.
var errDivZero = &candlePanic{"attempt to divide by zero"}

// host runs candle's MetalStorage code on a device.
type host struct {
	dev Device
}

// alloc is new_buffer_builder().with_size_for(n, t): n elements of t.
func (h *host) alloc(t mslType, shape []int) (devTensor, error) {
	buf, err := h.dev.NewBuffer(tensor.NumElements(shape) * t.size())
	if err != nil {
		return devTensor{}, err
	}
	return devTensor{buf: buf, t: t, shape: shape, strides: tensor.ContiguousStrides(shape)}, nil
}

// load is kernels.load_pipeline: a kernel that does not exist is
// MetalKernelError::LoadFunctionError, an Err.
func (h *host) load(name string) error {
	if !h.dev.HasKernel(name) {
		return errf(tensor.UnsupportedDType, "Metal error Error while loading function: %s", name)
	}
	return nil
}

// linearSplit is candle-metal-kernels' linear_split: threadgroups of
// min(max threads, size) threads, as many as cover size. size 0 divides by
// zero (usize::div_ceil), a panic.
func (h *host) linearSplit(name string, size int) (groups, width int, err error) {
	width = min(h.dev.MaxThreadsPerThreadgroup(name), size)
	if width == 0 {
		return 0, 0, errDivZero
	}
	return (size + width - 1) / width, width, nil
}

// tiles is length.div_ceil(get_tile_size(dtype_size)): the threads of a
// contiguous elementwise kernel, each handling 8 bytes' worth of elements.
func tiles(n int, t mslType) int {
	tile := max(1, 8/t.size())
	return (n + tile - 1) / tile
}

// dispatchLinear loads kernel name and runs it over size threads split by
// linearSplit.
func (h *host) dispatchLinear(name string, args []Arg, size int) error {
	if err := h.load(name); err != nil {
		return err
	}
	groups, width, err := h.linearSplit(name, size)
	if err != nil {
		return err
	}
	if err := h.dev.Dispatch(name, args, groups, width); err != nil {
		return fmt.Errorf("metal: %w", err)
	}
	return nil
}

func sizeTs(xs []int) Arg { return SizeTs(xs) }

// affine is MetalStorage::affine: mul and add are passed as f32.
func (h *host) affine(x devTensor, mul, add float64) (devTensor, error) {
	switch x.t {
	case tFloat, tHalf, tBfloat, tUchar, tUint, tLong:
	default:
		return devTensor{}, errf(tensor.UnsupportedDType, "Metal %s affine %s not implemented", layoutWord(x), rustDType(x.t))
	}
	out, err := h.alloc(x.t, x.shape)
	if err != nil {
		return out, err
	}
	name := "affine_" + x.t.String()
	m, a := Float(float32(mul)), Float(float32(add))
	if x.contiguous() {
		err = h.dispatchLinear(name, []Arg{SizeT(x.numel()), m, a, x.arg(), out.arg()}, tiles(x.numel(), x.t))
	} else {
		name += "_strided"
		err = h.dispatchLinear(name, []Arg{SizeT(x.numel()), SizeT(len(x.shape)), sizeTs(x.shape), sizeTs(x.strides),
			m, a, x.arg(), out.arg()}, x.numel())
	}
	return out, err
}

// powf is MetalStorage::powf (f32, f16, bf16).
func (h *host) powf(x devTensor, e float64) (devTensor, error) {
	if x.t != tFloat && x.t != tHalf && x.t != tBfloat {
		return devTensor{}, errf(tensor.UnsupportedDType, "Metal %s powf %s not implemented", layoutWord(x), rustDType(x.t))
	}
	out, err := h.alloc(x.t, x.shape)
	if err != nil {
		return out, err
	}
	name := "powf_" + x.t.String()
	if x.contiguous() {
		err = h.dispatchLinear(name, []Arg{SizeT(x.numel()), Float(float32(e)), x.arg(), out.arg()}, tiles(x.numel(), x.t))
	} else {
		name += "_strided"
		err = h.dispatchLinear(name, []Arg{SizeT(x.numel()), SizeT(len(x.shape)), sizeTs(x.shape), sizeTs(x.strides),
			Float(float32(e)), x.arg(), out.arg()}, x.numel())
	}
	return out, err
}

// unaryContiguous and unaryStrided are the (op, dtype) pairs of
// MetalStorage::unary_impl's two kernel tables that the catalog's ops
// reach: every float op for a contiguous layout, and sign of i64 (a kernel
// unary.metal never instantiates); for a strided layout neither sign nor
// recip (metal_backend/mod.rs:684-746 and :761-819 at 2a13b0f3).
var (
	unaryFloatOps   = []string{"uneg", "uabs", "usqrt", "uexp", "ulog", "ufloor", "uceil", "uround", "usqr"}
	unaryContiguous = unaryTable(append(unaryFloatOps, "usign", "urecip"), "usign I64")
	unaryStrided    = unaryTable(unaryFloatOps)
)

// unaryTable lists ops for f32, f16 and bf16, and extra "op DTYPE" pairs.
func unaryTable(ops []string, extra ...string) map[string]bool {
	table := map[string]bool{}
	for _, op := range ops {
		for _, t := range []mslType{tFloat, tHalf, tBfloat} {
			table[op+" "+rustDType(t)] = true
		}
	}
	for _, e := range extra {
		table[e] = true
	}
	return table
}

// unary is MetalStorage::unary_impl for candle's op called op (uneg,
// uabs, ...): the kernel table of the input's layout, then the kernel.
func (h *host) unary(op string, x devTensor) (devTensor, error) {
	base := op[1:] // "uneg" -> "neg"
	layout, table := "contiguous", unaryContiguous
	if !x.contiguous() {
		layout, table = "strided", unaryStrided
	}
	if !table[op+" "+rustDType(x.t)] {
		return devTensor{}, errf(tensor.UnsupportedDType, "Metal %s unary %s %s not implemented", layout, op, rustDType(x.t))
	}
	out, err := h.alloc(x.t, x.shape)
	if err != nil {
		return out, err
	}
	name := base + "_" + x.t.String()
	if x.contiguous() {
		err = h.dispatchLinear(name, []Arg{SizeT(x.numel()), x.arg(), out.arg()}, tiles(x.numel(), x.t))
	} else {
		name += "_strided"
		err = h.dispatchLinear(name, []Arg{SizeT(x.numel()), SizeT(len(x.shape)), sizeTs(x.shape), sizeTs(x.strides),
			x.arg(), out.arg()}, x.numel())
	}
	return out, err
}

// binary is MetalStorage::binary for kernel prefix op (badd, ..., eq, ...):
// comparisons write U8. The kernel is one of nine layout variants, chosen
// from the operands' layouts (metal_backend/mod.rs:1948-1958 at 2a13b0f3).
func (h *host) binary(op string, l, r devTensor) (devTensor, error) {
	outT := l.t
	switch op {
	case "eq", "ne", "le", "lt", "ge", "gt":
		outT = tUchar
	}
	out, err := h.alloc(outT, l.shape)
	if err != nil {
		return out, err
	}
	variant := binaryVariant(l, r)
	name := op + "_" + l.t.String() + variant
	n := l.numel()
	if variant == "" {
		err = h.dispatchLinear(name, []Arg{SizeT(n), l.arg(), r.arg(), out.arg()}, tiles(n, l.t))
	} else {
		err = h.dispatchLinear(name, []Arg{SizeT(n), SizeT(len(l.shape)), sizeTs(l.shape), sizeTs(l.strides),
			sizeTs(r.strides), l.arg(), r.arg(), out.arg()}, tiles(n, l.t))
	}
	return out, err
}

// variantByLayout names the suffixes of the kernels candle's binary picks, by
// the operands' layout classes (lhs, rhs): a scalar-like side first, then
// contiguity (candle-core metal_backend/mod.rs, binary).
var variantByLayout = map[[2]byte]string{
	{'s', 's'}: "_scalar", {'s', 'c'}: "_sc", {'s', 'x'}: "_rss",
	{'c', 's'}: "_cs", {'x', 's'}: "_lss",
	{'c', 'c'}: "", {'c', 'x'}: "_rstrided", {'x', 'c'}: "_lstrided", {'x', 'x'}: "_strided",
}

func binaryVariant(l, r devTensor) string {
	return variantByLayout[[2]byte{l.layoutClass(), r.layoutClass()}]
}

// castTable are the (from, to) pairs of MetalStorage::to_dtype's match.
func castable(from, to mslType) bool {
	in := func(t mslType) bool {
		switch t {
		case tFloat, tHalf, tBfloat, tLong, tUint, tUchar:
			return true
		}
		return false
	}
	return from != to && in(from) && in(to)
}

// toDType is MetalStorage::to_dtype (the same dtype never reaches it).
func (h *host) toDType(x devTensor, to mslType) (devTensor, error) {
	if !castable(x.t, to) {
		return devTensor{}, errf(tensor.UnsupportedDType, "Metal %s to_dtype %s %s not implemented", layoutWord(x), rustDType(x.t), rustDType(to))
	}
	out, err := h.alloc(to, x.shape)
	if err != nil {
		return out, err
	}
	name := "cast_" + x.t.String() + "_" + to.String()
	if x.contiguous() {
		err = h.dispatchLinear(name, []Arg{SizeT(x.numel()), x.arg(), out.arg()}, tiles(x.numel(), x.t))
	} else {
		name += "_strided"
		err = h.dispatchLinear(name, []Arg{SizeT(x.numel()), SizeT(len(x.shape)), sizeTs(x.shape), sizeTs(x.strides),
			x.arg(), out.arg()}, x.numel())
	}
	return out, err
}

// reduce ops of candle's ReduceOp.
const (
	reduceSum    = "sum"
	reduceMax    = "max"
	reduceMin    = "min"
	reduceArgMax = "argmax"
	reduceArgMin = "argmin"
)

// reduceOp is MetalStorage::reduce_op over the dims in sumDims: the input
// is viewed as (kept dims, reduced dims); each of the dst_el outputs is one
// threadgroup. The result has the input's shape with the reduced dims set
// to 1.
func (h *host) reduceOp(op string, x devTensor, sumDims []int) (devTensor, error) {
	reduced := make([]bool, len(x.shape))
	for _, d := range sumDims {
		reduced[d] = true
	}
	var dims, strides []int
	dstEl := 1
	for k := range x.shape {
		if !reduced[k] {
			dstEl *= x.shape[k]
			dims, strides = append(dims, x.shape[k]), append(strides, x.strides[k])
		}
	}
	for _, d := range sumDims {
		dims, strides = append(dims, x.shape[d]), append(strides, x.strides[d])
	}
	contiguous := x.contiguous() && isContiguous(dims, strides)
	isArg := op == reduceArgMax || op == reduceArgMin
	if !isReduceType(x.t) {
		layout := "contiguous"
		if !contiguous {
			layout = "strided"
		}
		return devTensor{}, errf(tensor.UnsupportedDType, "Metal %s reduce op %s %s not implemented", layout, rustReduceOp(op), rustDType(x.t))
	}
	if op != reduceSum && x.numel() == 0 {
		return devTensor{}, errf(tensor.EmptyTensor, "the tensor is empty (op: reduce)")
	}
	outT := x.t
	if isArg {
		outT = tUint
	}
	outShape := append([]int{}, x.shape...)
	for _, d := range sumDims {
		outShape[d] = 1
	}
	out, err := h.alloc(outT, outShape)
	if err != nil {
		return out, err
	}
	name := "fast_" + op + "_" + x.t.String()
	length := x.numel()
	if dstEl == 0 {
		return out, errDivZero // work_per_threadgroup = length / out_length
	}
	perGroup := length / dstEl
	var args []Arg
	if contiguous {
		// candle passes the input's own dims here, not the reordered ones:
		// the arg kernels take dims[rank - 1] as the length of the reduced
		// dim, which it is not when size-1 dims follow the reduced one.
		args = []Arg{Uint(length), Uint(len(x.shape)), Uints(x.shape), Uint(perGroup), x.arg(), out.arg()}
	} else {
		name += "_strided"
		args = []Arg{Uint(length), Uint(len(dims)), Uints(dims), Uints(strides), Uint(perGroup), x.arg(), out.arg()}
	}
	if err := h.load(name); err != nil {
		return out, err
	}
	width := min(h.dev.MaxThreadsPerThreadgroup(name), nextPowerOfTwo(perGroup/2))
	if err := h.dev.Dispatch(name, args, dstEl, width); err != nil {
		return out, fmt.Errorf("metal: %w", err)
	}
	return out, nil
}

func isReduceType(t mslType) bool {
	switch t {
	case tFloat, tHalf, tBfloat, tUchar, tUint, tLong:
		return true
	}
	return false
}

// nextPowerOfTwo is Rust's usize::next_power_of_two (0 -> 1).
func nextPowerOfTwo(n int) int {
	if n <= 1 {
		return 1
	}
	return 1 << bits.Len(uint(n-1))
}

// indexSelect is MetalStorage::index_select (metal_backend/mod.rs:1605-1666
// at 2a13b0f3): the host names one of 18 (ids, source) kernels, of which
// indexing.metal defines 16 (no is_i64_u8, no is_i64_u32: loading them is
// an Err), and launches one thread per output element with the source's
// layout (contiguous, dims, strides).
func (h *host) indexSelect(src, ids devTensor, dim int) (devTensor, error) {
	if !ids.contiguous() {
		return devTensor{}, errf(tensor.Other, "Metal index_select requires contiguous ids")
	}
	left := tensor.NumElements(src.shape[:dim])
	right := tensor.NumElements(src.shape[dim+1:])
	nIDs := ids.numel()
	okIDs := ids.t == tUchar || ids.t == tUint || ids.t == tLong
	okSrc := isReduceType(src.t)
	if !okIDs || !okSrc {
		class := tensor.UnsupportedDType
		if !okIDs {
			class = tensor.IndexDType
		}
		return devTensor{}, errf(class, "Metal contiguous index_select %s %s not implemented", rustDType(ids.t), rustDType(src.t))
	}
	outShape := append([]int{}, src.shape...)
	outShape[dim] = nIDs
	out, err := h.alloc(src.t, outShape)
	if err != nil {
		return out, err
	}
	name := "is_" + ids.t.String() + "_" + src.t.String()
	nOut := nIDs * left * right
	err = h.dispatchLinear(name, []Arg{SizeT(nOut), SizeT(left), SizeT(src.shape[dim]), SizeT(right), SizeT(nIDs),
		Bool(src.contiguous()), sizeTs(src.shape), sizeTs(src.strides), src.arg(), ids.arg(), out.arg()}, nOut)
	return out, err
}

// rustDType is a dtype as candle's Debug prints it ("F32", "BF16").
func rustDType(t mslType) string {
	s := []byte(t.String())
	for i, c := range s {
		if c >= 'a' && c <= 'z' {
			s[i] = c - 'a' + 'A'
		}
	}
	return string(s)
}

// rustReduceOp is a ReduceOp as candle's Debug prints it.
func rustReduceOp(op string) string {
	return map[string]string{reduceSum: "Sum", reduceMax: "Max", reduceMin: "Min", reduceArgMax: "ArgMax", reduceArgMin: "ArgMin"}[op]
}
