package tensor

// OpClass groups the ops of the catalog by the arguments and attrs they take.
type OpClass uint8

const (
	ClassBinary      OpClass = iota // tensor, tensor or scalar (either side)
	ClassUnary                      // tensor
	ClassCast                       // tensor; attrs to, mode
	ClassReduce                     // tensor; attrs dim, keepdim
	ClassCumsum                     // tensor; attr dim
	ClassIndexSelect                // tensor, index tensor; attr dim
	ClassFromLiteral                // no args; attr literal
	ClassArange                     // no args; attrs start, end
	ClassZeros                      // no args; attrs shape, dtype
	ClassFromVec                    // 1-D tensor; attr shape
	ClassToHost                     // tensor; attrs dtype, rank
	ClassBroadcast                  // tensor, tensor (candle's broadcast_* ops)
	ClassWhere                      // condition tensor, tensor or scalar, tensor or scalar
	ClassClamp                      // tensor, min, max (each a tensor, a scalar or null)
	ClassFull                       // no args; attrs shape, value, dtype
	ClassSort                       // tensor; attrs dim, descending, stable (sort, argsort)
	ClassMaskSelect                 // tensor, mask tensor
	ClassMatmul                     // tensor, tensor (matmul.go)
	ClassCat                        // one or more tensors; attr dim (matmul.go)
)

// OpInfo describes one op of the case-format catalog.
type OpInfo struct {
	Name  string
	Class OpClass
	Doc   string // the PyTorch spelling, for orientation
}

// Ops is the op catalog of case format v1, in the spec's order.
var Ops = []OpInfo{
	{"add", ClassBinary, "a + b"},
	{"sub", ClassBinary, "a - b"},
	{"mul", ClassBinary, "a * b"},
	{"div", ClassBinary, "a / b (true division in PyTorch/NumPy/JAX; truncating integer division in candle, burn, tenferro)"},
	{"floor_div", ClassBinary, "a // b"},
	{"trunc_div", ClassBinary, `torch.div(a, b, rounding_mode="trunc")`},
	{"rem", ClassBinary, "a % b (torch.remainder)"},
	{"fmod", ClassBinary, "torch.fmod(a, b)"},
	{"maximum", ClassBinary, "torch.maximum(a, b)"},
	{"minimum", ClassBinary, "torch.minimum(a, b)"},
	{"pow", ClassBinary, "a ** b"},
	{"eq", ClassBinary, "a == b"},
	{"ne", ClassBinary, "a != b"},
	{"lt", ClassBinary, "a < b"},
	{"le", ClassBinary, "a <= b"},
	{"gt", ClassBinary, "a > b"},
	{"ge", ClassBinary, "a >= b"},
	{"bitwise_and", ClassBinary, "a & b"},
	{"bitwise_or", ClassBinary, "a | b"},
	{"bitwise_xor", ClassBinary, "a ^ b"},
	{"neg", ClassUnary, "-a"},
	{"abs", ClassUnary, "torch.abs(a)"},
	{"sign", ClassUnary, "torch.sign(a)"},
	{"sqrt", ClassUnary, "torch.sqrt(a)"},
	{"exp", ClassUnary, "torch.exp(a)"},
	{"floor", ClassUnary, "torch.floor(a)"},
	{"ceil", ClassUnary, "torch.ceil(a)"},
	{"round", ClassUnary, "torch.round(a)"},
	{"trunc", ClassUnary, "torch.trunc(a)"},
	{"square", ClassUnary, "torch.square(a)"},
	{"bitwise_not", ClassUnary, "~a"},
	{"cast", ClassCast, "a.to(dtype); tenferro cast / convert"},
	{"sum", ClassReduce, "a.sum(dim)"},
	{"prod", ClassReduce, "a.prod(dim)"},
	{"mean", ClassReduce, "a.mean(dim)"},
	{"max", ClassReduce, "torch.amax(a, dim)"},
	{"min", ClassReduce, "torch.amin(a, dim)"},
	{"argmax", ClassReduce, "a.argmax(dim)"},
	{"argmin", ClassReduce, "a.argmin(dim)"},
	{"cumsum", ClassCumsum, "a.cumsum(dim)"},
	{"index_select", ClassIndexSelect, "a.index_select(dim, idx)"},
	{"from_literal", ClassFromLiteral, "torch.tensor(literal)"},
	{"arange", ClassArange, "torch.arange(start, end)"},
	{"zeros", ClassZeros, "torch.zeros(shape)"},
	{"from_vec", ClassFromVec, "candle Tensor::from_vec(v, shape); torch.tensor(v).reshape(shape)"},
	{"to_host", ClassToHost, "candle to_vec1::<T>() / to_scalar; t.tolist()"},
	// added 2026-12
	{"broadcast_add", ClassBroadcast, "candle a.broadcast_add(&b); a + b elsewhere"},
	{"broadcast_sub", ClassBroadcast, "candle a.broadcast_sub(&b); a - b elsewhere"},
	{"broadcast_mul", ClassBroadcast, "candle a.broadcast_mul(&b); a * b elsewhere"},
	{"broadcast_div", ClassBroadcast, "candle a.broadcast_div(&b); a / b elsewhere"},
	{"broadcast_maximum", ClassBroadcast, "candle a.broadcast_maximum(&b); torch.maximum(a, b) elsewhere"},
	{"broadcast_minimum", ClassBroadcast, "candle a.broadcast_minimum(&b); torch.minimum(a, b) elsewhere"},
	{"where", ClassWhere, "torch.where(c, a, b); candle c.where_cond(&a, &b)"},
	{"clamp", ClassClamp, "torch.clamp(t, min, max); np.clip; candle t.clamp(min, max)"},
	{"shift_left", ClassBinary, "a << b (torch.bitwise_left_shift)"},
	{"shift_right", ClassBinary, "a >> b (torch.bitwise_right_shift)"},
	{"full", ClassFull, "torch.full(shape, value); candle Tensor::full(value, shape)"},
	{"sort", ClassSort, "torch.sort(t, dim, descending, stable) values; np.sort; candle sort_last_dim(asc)"},
	{"argsort", ClassSort, "torch.sort(t, dim, descending, stable) indices; np.argsort; candle arg_sort_last_dim(asc)"},
	{"mask_select", ClassMaskSelect, "t[mask] (a uint8 mask is a mask in PyTorch, integer indices in NumPy); burn t.mask_select(mask)"},
	{"matmul", ClassMatmul, "a @ b (torch.matmul); candle a.matmul(&b)"},
	{"cat", ClassCat, "torch.cat([a, b, ...], dim); candle Tensor::cat(&[..], dim)"},
}

var opIndex = func() map[string]OpInfo {
	m := make(map[string]OpInfo, len(Ops))
	for _, op := range Ops {
		m[op.Name] = op
	}
	return m
}()

// LookupOp returns the catalog entry of the op called name.
func LookupOp(name string) (OpInfo, bool) {
	op, ok := opIndex[name]
	return op, ok
}

// Profiles lists the profile names of case format v1, in the spec's order.
var Profiles = []string{
	"pytorch/cpu", "pytorch/cpu-arm64", "pytorch/cuda", "pytorch/mps",
	"numpy", "numpy/cpu-arm64",
	"jax/cpu-x32", "jax/cpu-x64", "jax/gpu-x32", "jax/gpu-x64",
	"candle/cpu-debug", "candle/cpu-release", "candle/metal",
	"burn/flex-debug", "burn/flex-release", "burn/ndarray",
	"tenferro/traced", "tenferro/eager", "tenferro/direct",
}

// KnownProfile reports whether name is a profile of the case format.
func KnownProfile(name string) bool {
	for _, p := range Profiles {
		if p == name {
			return true
		}
	}
	return false
}
