package cpu

import (
	"strings"

	"github.com/tfuzz/tfuzz/tensor"
)

// Type promotion of the binary ops of PyTorch, NumPy 2 and JAX: the common
// dtype both operands are converted to. The tables are the frameworks'
// lattices written out (from /work/notes/promotion.md, checked against the
// oracle there); rows are the left operand, columns the right.

// realDTypes are the table rows and columns, in order.
var realDTypes = [13]tensor.DType{tensor.Bool, tensor.U8, tensor.I8, tensor.U16, tensor.I16, tensor.U32,
	tensor.I32, tensor.U64, tensor.I64, tensor.F16, tensor.BF16, tensor.F32, tensor.F64}

// promoError marks a PyTorch promotion error in a table.
const promoError = tensor.Invalid

// promoTable maps two real dtypes to their common dtype.
type promoTable [tensor.C128 + 1][tensor.C128 + 1]tensor.DType

// parsePromoTable reads rows "b u1 i1 ..." of short dtype names (PE: error).
func parsePromoTable(text string) *promoTable {
	short := map[string]tensor.DType{"b": tensor.Bool, "u1": tensor.U8, "i1": tensor.I8, "u2": tensor.U16,
		"i2": tensor.I16, "u4": tensor.U32, "i4": tensor.I32, "u8": tensor.U64, "i8": tensor.I64,
		"f2": tensor.F16, "bf": tensor.BF16, "f4": tensor.F32, "f8": tensor.F64, "PE": promoError}
	var t promoTable
	rows := strings.Split(strings.TrimSpace(text), "\n")
	if len(rows) != len(realDTypes) {
		panic("cpu: promotion table needs 13 rows")
	}
	for i, row := range rows {
		f := strings.Fields(row)
		if len(f) != len(realDTypes) {
			panic("cpu: promotion table row needs 13 entries: " + row)
		}
		for j, s := range f {
			d, ok := short[s]
			if !ok {
				panic("cpu: bad promotion table entry " + s)
			}
			t[realDTypes[i]][realDTypes[j]] = d
		}
	}
	return &t
}

// torchPromote is c10::promoteTypes (policies pytorch.promote.types and
// pytorch.promote.barebones-unsigned: PE where u16/u32/u64 meet anything
// but themselves and a real float).
var torchPromote = parsePromoTable(`
b  u1 i1 PE i2 PE i4 PE i8 f2 bf f4 f8
u1 u1 i2 PE i2 PE i4 PE i8 f2 bf f4 f8
i1 i2 i1 PE i2 PE i4 PE i8 f2 bf f4 f8
PE PE PE u2 PE PE PE PE PE f2 bf f4 f8
i2 i2 i2 PE i2 PE i4 PE i8 f2 bf f4 f8
PE PE PE PE PE u4 PE PE PE f2 bf f4 f8
i4 i4 i4 PE i4 PE i4 PE i8 f2 bf f4 f8
PE PE PE PE PE PE PE u8 PE f2 bf f4 f8
i8 i8 i8 PE i8 PE i8 PE i8 f2 bf f4 f8
f2 f2 f2 f2 f2 f2 f2 f2 f2 f2 f4 f4 f8
bf bf bf bf bf bf bf bf bf f4 bf f4 f8
f4 f4 f4 f4 f4 f4 f4 f4 f4 f4 f4 f4 f8
f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 f8`)

// numpyPromote is np.promote_types with ml_dtypes' bfloat16 (policy
// numpy.promote.types).
var numpyPromote = parsePromoTable(`
b  u1 i1 u2 i2 u4 i4 u8 i8 f2 bf f4 f8
u1 u1 i2 u2 i2 u4 i4 u8 i8 f2 bf f4 f8
i1 i2 i1 i4 i2 i8 i4 f8 i8 f2 bf f4 f8
u2 u2 i4 u2 i4 u4 i4 u8 i8 f4 f4 f4 f8
i2 i2 i2 i4 i2 i8 i4 f8 i8 f4 f4 f4 f8
u4 u4 i8 u4 i8 u4 i8 u8 i8 f8 f8 f8 f8
i4 i4 i4 i4 i4 i8 i4 f8 i8 f8 f8 f8 f8
u8 u8 f8 u8 f8 u8 f8 u8 f8 f8 f8 f8 f8
i8 i8 i8 i8 i8 i8 i8 f8 i8 f8 f8 f8 f8
f2 f2 f2 f4 f4 f8 f8 f8 f8 f2 f4 f4 f8
bf bf bf f4 f4 f8 f8 f8 f8 f4 bf f4 f8
f4 f4 f4 f4 f4 f8 f8 f8 f8 f4 f4 f4 f8
f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 f8`)

// jaxPromote is JAX's lattice join with x64 on (policy jax.promote.lattice).
// Without x64 the inputs are narrowed first and the join is narrowed after.
var jaxPromote = parsePromoTable(`
b  u1 i1 u2 i2 u4 i4 u8 i8 f2 bf f4 f8
u1 u1 i2 u2 i2 u4 i4 u8 i8 f2 bf f4 f8
i1 i2 i1 i4 i2 i8 i4 f8 i8 f2 bf f4 f8
u2 u2 i4 u2 i4 u4 i4 u8 i8 f2 bf f4 f8
i2 i2 i2 i4 i2 i8 i4 f8 i8 f2 bf f4 f8
u4 u4 i8 u4 i8 u4 i8 u8 i8 f2 bf f4 f8
i4 i4 i4 i4 i4 i8 i4 f8 i8 f2 bf f4 f8
u8 u8 f8 u8 f8 u8 f8 u8 f8 f2 bf f4 f8
i8 i8 i8 i8 i8 i8 i8 f8 i8 f2 bf f4 f8
f2 f2 f2 f2 f2 f2 f2 f2 f2 f2 f4 f4 f8
bf bf bf bf bf bf bf bf bf f4 bf f4 f8
f4 f4 f4 f4 f4 f4 f4 f4 f4 f4 f4 f4 f8
f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 f8`)

// pyOperand is one operand of a binary op as promotion sees it.
type pyOperand struct {
	scalar bool
	kind   tensor.ScalarKind // scalar
	dtype  tensor.DType      // tensor (after JAX x32 narrowing)
	zeroD  bool              // tensor of rank 0
}

// torchResultType is at::result_type over dimensioned tensors, 0-dim
// tensors and wrapped Python numbers (policy pytorch.promote.categories):
// each class is promoted within itself; a lower class only counts when it is
// of a higher category (bool < integer < float). ok is false on a promotion
// error.
func torchResultType(ops ...pyOperand) (tensor.DType, bool) {
	var slots [3]tensor.DType // dimensioned, 0-dim, wrapped
	for _, o := range ops {
		k, d := 0, o.dtype
		switch {
		case o.scalar:
			k = 2
			d = torchWrapped(o.kind)
		case o.zeroD && !(zooBuild && zoo("zero-dim-promotion")): // zoo: 0-dim promoted like a full tensor
			k = 1
		}
		if slots[k] == tensor.Invalid {
			slots[k] = d
			continue
		}
		slots[k] = torchPromote[slots[k]][d]
		if slots[k] == promoError {
			return 0, false
		}
	}
	lower, ok := torchCombine(slots[1], slots[2])
	if !ok {
		return 0, false
	}
	return torchCombine(slots[0], lower)
}

// torchWrapped is the dtype a Python number takes part in promotion with:
// int as i64, float as the default dtype f32, bool as bool.
func torchWrapped(k tensor.ScalarKind) tensor.DType {
	switch k {
	case tensor.ScalarInt:
		return tensor.I64
	case tensor.ScalarFloat:
		return tensor.F32
	}
	return tensor.Bool
}

// torchCombine merges a higher class's dtype with a lower class's.
func torchCombine(higher, lower tensor.DType) (tensor.DType, bool) {
	switch {
	case higher == tensor.Invalid:
		return lower, true
	case lower == tensor.Invalid, higher.IsFloat():
		return higher, true
	case higher == tensor.Bool || lower.IsFloat():
		d := torchPromote[higher][lower]
		return d, d != promoError
	}
	return higher, true
}

// numpyResultType promotes the arrays (0-dim arrays are ordinary), then
// applies the weak Python scalars (policy numpy.promote.nep50-weak-scalars):
// an int makes a bool result int64, a float makes a bf16 result f32 and a
// non-float one f64. Invalid when only Python ints and bools take part (no
// array to take the type of).
func numpyResultType(ops ...pyOperand) tensor.DType {
	r := tensor.Invalid
	for _, o := range ops {
		switch {
		case o.scalar:
		case r == tensor.Invalid:
			r = o.dtype
		default:
			r = numpyPromote[r][o.dtype]
		}
	}
	for _, o := range ops {
		switch {
		case !o.scalar:
		case o.kind == tensor.ScalarInt && r == tensor.Bool:
			r = tensor.I64
		case o.kind == tensor.ScalarFloat && r == tensor.BF16:
			r = tensor.F32
		case o.kind == tensor.ScalarFloat && !r.IsFloat():
			r = tensor.F64
		}
	}
	return r
}

// jaxResultType joins the operands in JAX's lattice (policy
// jax.promote.lattice): the arrays and Python bools (a strong bool), then
// the weak Python ints and floats, which take the strong side's dtype when
// it is of their kind or higher (an int makes bool int64, a float makes an
// integer f64; alone they are int64 and f64). Inputs are already narrowed
// without x64, and the result is narrowed.
func jaxResultType(x64 bool, ops ...pyOperand) tensor.DType {
	r := tensor.Invalid
	for _, o := range ops {
		d := o.dtype
		switch {
		case o.scalar && o.kind != tensor.ScalarBool:
			continue
		case o.scalar:
			d = tensor.Bool
		}
		if r == tensor.Invalid {
			r = d
		} else {
			r = jaxPromote[r][d]
		}
	}
	for _, o := range ops {
		switch {
		case !o.scalar:
		case o.kind == tensor.ScalarInt && (r == tensor.Invalid || r == tensor.Bool):
			r = tensor.I64
		case o.kind == tensor.ScalarFloat && !r.IsFloat():
			r = tensor.F64
		}
	}
	if !x64 {
		r = narrow32(r)
	}
	return r
}
