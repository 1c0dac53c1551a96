package model

import (
	"fmt"
	"math/big"

	"github.com/tfuzz/tfuzz/tensor"
)

// Type promotion of the binary ops of PyTorch, NumPy 2 and JAX: the dtype
// both operands are converted to before the op runs (the "common" dtype).
// Op-specific adjustments (true division of integers, comparisons, pow of
// bools) are made by the caller in pybinary.go.

// pyArg is one operand of a binary op: a tensor as the framework holds it
// (after e.input) or a Python scalar.
type pyArg struct {
	t *tensor.Tensor
	s *tensor.Scalar
}

func (a pyArg) isScalar() bool { return a.s != nil }

// pyScalarKind returns the Python type of a scalar operand.
func (a pyArg) kind() tensor.ScalarKind { return a.s.Kind }

// promoError is PyTorch's refusal to promote a barebones unsigned type.
type promoError struct{ a, b tensor.DType }

func (p *promoError) Error() string {
	return fmt.Sprintf("RuntimeError: Promotion for uint16, uint32, uint64 types is not supported, attempted to promote %s and %s",
		torchName(p.a), torchName(p.b))
}

var (
	torchPromoteRule = newRule("pytorch.promote.types",
		"c10::promoteTypes: bool < u8 < i8/i16/i32/i64 (u8 with i8 gives i16), any int with a float gives the float, f16 with bf16 gives f32, complex wins and is c128 when either side has f64 precision",
		"promotion.md §2.1; oracle-00212..00661 (promote group), oracle-00246 (i8+u8 -> i16)")
	torchUnsignedPromo = newRule("pytorch.promote.barebones-unsigned",
		"promoting u16/u32/u64 with any other dtype than a real float (complex and bool included) raises RuntimeError: Promotion for uint16, uint32, uint64 types is not supported",
		"promotion.md §2.3; oracle-00220, oracle-00250, oracle-00358, oracle2-00044")
	torchCategories = newRule("pytorch.promote.categories",
		"torch.result_type: dimensioned tensors, 0-dim tensors and wrapped Python numbers (bool, int as i64, float as the default f32) are promoted within their class; a lower class only counts when it is of a higher category (bool < integer < float < complex)",
		"promotion.md §2.2; oracle-00784 (i64*0.5 -> f32), oracle-01154, oracle-00821, oracle-00333..00345, oracle-00631")
	numpyPromoteRule = newRule("numpy.promote.types",
		"np.promote_types: the smallest type holding both (u64 with a signed int gives f64, ints become the float that holds them); ml_dtypes bf16 with u8/i8 is bf16, with 16-bit types or f16/f32 f32, with wider types f64",
		"promotion.md §3.1; promote and promote0d groups, oracle-00662 (i32+f16 -> f64)")
	numpyWeak = newRule("numpy.promote.nep50-weak-scalars",
		"NEP 50: a Python int or float takes the array's dtype when it is of the same or a higher kind; an int with a bool array gives i64, a float with a bool/int array f64; bf16 (ml_dtypes) with a Python float gives f32",
		"promotion.md §3.2; oracle-00696, oracle-00829, oracle-00834")
	jaxLatticeRule = newRule("jax.promote.lattice",
		"JAX's type promotion lattice with weak Python scalars (i*, f*, c*): the least upper bound of the operands' nodes, weak results taking the default dtype of their kind (i64/f64/c128, narrowed to 32 bits without x64)",
		"promotion.md §4; jax/_src/dtypes.py _type_promotion_lattice; oracle-00258, oracle-00259")
)

// pyPromote returns the common dtype of the operands under the profile's
// promotion rules, or an error outcome.
func (e *evaluation) pyPromote(args []pyArg) (tensor.DType, *tensor.Outcome) {
	switch e.p.Framework {
	case PyTorch:
		e.use(torchPromoteRule)
		d, err := torchResultType(args)
		if err != nil {
			o := e.fail(torchUnsignedPromo, tensor.UnsupportedDType, "%s", err.Error())
			return tensor.Invalid, &o
		}
		if hasLowerClass(args) {
			e.use(torchCategories)
		}
		return d, nil
	case NumPy:
		e.use(numpyPromoteRule)
		if hasScalar(args) {
			e.use(numpyWeak)
		}
		return numpyResultType(args), nil
	}
	e.use(jaxLatticeRule)
	return jaxResultType(args, e.p.X64), nil
}

func hasScalar(args []pyArg) bool {
	for _, a := range args {
		if a.isScalar() {
			return true
		}
	}
	return false
}

// hasLowerClass reports whether a 0-dim tensor or a scalar takes part.
func hasLowerClass(args []pyArg) bool {
	for _, a := range args {
		if a.isScalar() || a.t.Rank() == 0 {
			return true
		}
	}
	return false
}

// ---------------------------------------------------------------- PyTorch

func isRealFloat(d tensor.DType) bool { return d.IsFloat() }

// torchPromoteTypes is c10::promoteTypes.
func torchPromoteTypes(a, b tensor.DType) (tensor.DType, error) {
	switch {
	case a == b:
		return a, nil
	case isBarebonesUnsigned(a) || isBarebonesUnsigned(b):
		if isRealFloat(a) {
			return a, nil
		}
		if isRealFloat(b) {
			return b, nil
		}
		return tensor.Invalid, &promoError{a, b}
	case a.IsComplex() || b.IsComplex():
		return complexJoin(a, b, tensor.F64), nil
	case a.IsFloat() && b.IsFloat():
		return floatJoin(a, b), nil
	case a.IsFloat():
		return a, nil
	case b.IsFloat():
		return b, nil
	case a == tensor.Bool:
		return b, nil
	case b == tensor.Bool:
		return a, nil
	case a == tensor.U8 || b == tensor.U8:
		o := b
		if b == tensor.U8 {
			o = a
		}
		if o == tensor.I8 {
			return tensor.I16, nil
		}
		return o, nil
	}
	if a.Bits() >= b.Bits() {
		return a, nil
	}
	return b, nil
}

// floatJoin is the wider of two real floats; f16 with bf16 is f32.
func floatJoin(a, b tensor.DType) tensor.DType {
	if a == b {
		return a
	}
	if a.Bits() == 16 && b.Bits() == 16 {
		return tensor.F32
	}
	if a.Bits() >= b.Bits() {
		return a
	}
	return b
}

// complexJoin joins a complex dtype with anything: c128 if either side has
// the precision of wide (f64) or is c128, else c64.
func complexJoin(a, b, wide tensor.DType) tensor.DType {
	if a == tensor.C128 || b == tensor.C128 || a == wide || b == wide {
		return tensor.C128
	}
	return tensor.C64
}

// torchWrappedDType is the dtype a Python number takes part in promotion with.
func torchWrappedDType(k tensor.ScalarKind) tensor.DType {
	switch k {
	case tensor.ScalarInt:
		return tensor.I64
	case tensor.ScalarFloat:
		return tensor.F32 // the default dtype, not f64
	case tensor.ScalarComplex:
		return tensor.C64 // the default complex dtype, of the default f32
	}
	return tensor.Bool
}

// torchResultType is at::result_type over dimensioned tensors, 0-dim tensors
// and wrapped numbers.
func torchResultType(args []pyArg) (tensor.DType, error) {
	slots, err := torchClassDTypes(args)
	if err != nil {
		return tensor.Invalid, err
	}
	lower, err := torchCombine(slots[1], slots[2])
	if err != nil {
		return tensor.Invalid, err
	}
	return torchCombine(slots[0], lower)
}

// torchClassDTypes promotes the operands within their classes: dimensioned
// tensors, 0-dim tensors, wrapped numbers (Invalid where a class is empty).
func torchClassDTypes(args []pyArg) ([3]tensor.DType, error) {
	var slots [3]tensor.DType // dim, zero-dim, wrapped
	for _, a := range args {
		k, d := 0, tensor.Invalid
		switch {
		case a.isScalar():
			k, d = 2, torchWrappedDType(a.kind())
		case a.t.Rank() == 0:
			k, d = 1, a.t.DType
		default:
			d = a.t.DType
		}
		if slots[k] == tensor.Invalid {
			slots[k] = d
			continue
		}
		p, err := torchPromoteTypes(slots[k], d)
		if err != nil {
			return slots, err
		}
		slots[k] = p
	}
	return slots, nil
}

// torchCombine merges a higher class's dtype with a lower class's.
func torchCombine(higher, lower tensor.DType) (tensor.DType, error) {
	switch {
	case higher == tensor.Invalid:
		return lower, nil
	case lower == tensor.Invalid, higher.IsComplex():
		return higher, nil
	case lower.IsComplex():
		if higher.IsFloat() {
			if higher == tensor.F64 {
				return tensor.C128, nil
			}
			return tensor.C64, nil // f16 gives ComplexHalf: see torchComplexHalf
		}
		return lower, nil
	case higher.IsFloat():
		return higher, nil
	case higher == tensor.Bool || lower.IsFloat():
		return torchPromoteTypes(higher, lower)
	}
	return higher, nil
}

// torchComplexHalf reports a promotion whose result is ComplexHalf: a
// lower class's complex dtype meeting f16 (combine_categories gives
// toComplexType(Half)), and that ComplexHalf surviving the dimensioned class.
func torchComplexHalf(args []pyArg) bool {
	slots, err := torchClassDTypes(args)
	if err != nil {
		return false
	}
	dim, zero, wrapped := slots[0], slots[1], slots[2]
	lowerHalf := zero == tensor.F16 && wrapped.IsComplex()
	lower, _ := torchCombine(zero, wrapped)
	switch {
	case dim == tensor.F16:
		return lower.IsComplex()
	case dim.IsFloat() || dim.IsComplex():
		return false
	}
	return lowerHalf
}

// ---------------------------------------------------------------- NumPy

// numpyFloatFor is the smallest float that holds every value of an integer
// (or bool) dtype.
func numpyFloatFor(d tensor.DType) tensor.DType {
	switch {
	case d.IsFloat():
		return d
	case d == tensor.Bool || d.Bits() == 8:
		return tensor.F16
	case d.Bits() == 16:
		return tensor.F32
	}
	return tensor.F64
}

// numpyPromoteTypes is np.promote_types, with ml_dtypes' bfloat16 rules.
func numpyPromoteTypes(a, b tensor.DType) tensor.DType {
	switch {
	case a == b:
		return a
	case a == tensor.Bool:
		return b
	case b == tensor.Bool:
		return a
	case a.IsComplex() || b.IsComplex():
		x, y := a.Component(), b.Component()
		return complexJoin(numpyPromoteTypes(x, y), tensor.Invalid, tensor.F64)
	case a == tensor.BF16 || b == tensor.BF16:
		o := b
		if b == tensor.BF16 {
			o = a
		}
		switch {
		case o.Bits() == 8:
			return tensor.BF16
		case o.Bits() == 16 || o == tensor.F32:
			return tensor.F32
		}
		return tensor.F64
	case a.IsFloat() || b.IsFloat():
		return floatJoin(numpyFloatFor(a), numpyFloatFor(b))
	case a.IsSigned() == b.IsSigned():
		if a.Bits() >= b.Bits() {
			return a
		}
		return b
	}
	u, s := a, b
	if a.IsSigned() {
		u, s = b, a
	}
	switch {
	case s.Bits() > u.Bits():
		return s
	case u.Bits() == 64:
		return tensor.F64
	}
	return signedOfBits(2 * u.Bits())
}

func signedOfBits(bits int) tensor.DType {
	return map[int]tensor.DType{8: tensor.I8, 16: tensor.I16, 32: tensor.I32, 64: tensor.I64}[bits]
}

// numpyResultType promotes the arrays (0-dim arrays are ordinary in NumPy 2)
// and then applies the weak Python scalars.
func numpyResultType(args []pyArg) tensor.DType {
	r := tensor.Invalid
	for _, a := range args {
		if a.isScalar() {
			continue
		}
		if r == tensor.Invalid {
			r = a.t.DType
		} else {
			r = numpyPromoteTypes(r, a.t.DType)
		}
	}
	for _, a := range args {
		if !a.isScalar() {
			continue
		}
		switch a.kind() {
		case tensor.ScalarInt:
			if r == tensor.Bool {
				r = tensor.I64
			}
		case tensor.ScalarFloat:
			switch {
			case r == tensor.BF16:
				r = tensor.F32
			case !r.IsFloat() && !r.IsComplex():
				r = tensor.F64
			}
		case tensor.ScalarComplex:
			r = numpyWeakComplex(r)
		}
	}
	return r
}

// numpyWeakComplex is the result dtype of an array of dtype r with a Python
// complex (NEP 50): bools and integers take the default complex128, floats
// the complex of their precision (f16 and ml_dtypes' bf16 complex64), complex
// dtypes stay.
func numpyWeakComplex(r tensor.DType) tensor.DType {
	switch {
	case r.IsComplex():
		return r
	case r == tensor.F64 || !r.IsFloat():
		return tensor.C128
	}
	return tensor.C64
}

// ---------------------------------------------------------------- JAX

// jaxNode is a node of JAX's promotion lattice: a dtype or a weak type.
type jaxNode uint8

const (
	jaxWeakInt     jaxNode = iota + 100 // i*: a Python int
	jaxWeakFloat                        // f*: a Python float
	jaxWeakComplex                      // c*: a Python complex
)

func jn(d tensor.DType) jaxNode { return jaxNode(d) }

// jaxLattice maps each node to its immediate supertypes (jax._src.dtypes,
// 'standard' promotion, x64 lattice; x32 results are narrowed afterwards).
var jaxLattice = map[jaxNode][]jaxNode{
	jn(tensor.Bool): {jaxWeakInt},
	jaxWeakInt:      {jn(tensor.U8), jn(tensor.I8)},
	jn(tensor.U8):   {jn(tensor.I16), jn(tensor.U16)},
	jn(tensor.U16):  {jn(tensor.I32), jn(tensor.U32)},
	jn(tensor.U32):  {jn(tensor.I64), jn(tensor.U64)},
	jn(tensor.U64):  {jaxWeakFloat},
	jn(tensor.I8):   {jn(tensor.I16)},
	jn(tensor.I16):  {jn(tensor.I32)},
	jn(tensor.I32):  {jn(tensor.I64)},
	jn(tensor.I64):  {jaxWeakFloat},
	jaxWeakFloat:    {jn(tensor.BF16), jn(tensor.F16), jaxWeakComplex},
	jn(tensor.BF16): {jn(tensor.F32)},
	jn(tensor.F16):  {jn(tensor.F32)},
	jn(tensor.F32):  {jn(tensor.F64), jn(tensor.C64)},
	jn(tensor.F64):  {jn(tensor.C128)},
	jaxWeakComplex:  {jn(tensor.C64)},
	jn(tensor.C64):  {jn(tensor.C128)},
	jn(tensor.C128): nil,
}

// jaxUpperBounds is each node's set of upper bounds, itself included.
var jaxUpperBounds = func() map[jaxNode]map[jaxNode]bool {
	ub := map[jaxNode]map[jaxNode]bool{}
	var visit func(n jaxNode, into map[jaxNode]bool)
	visit = func(n jaxNode, into map[jaxNode]bool) {
		if into[n] {
			return
		}
		into[n] = true
		for _, m := range jaxLattice[n] {
			visit(m, into)
		}
	}
	for n := range jaxLattice {
		ub[n] = map[jaxNode]bool{}
		visit(n, ub[n])
	}
	return ub
}()

// jaxLeastUpperBound is the least upper bound of nodes in the lattice,
// computed from the sets of upper bounds (jaxJoinOf tabulates it for pairs).
func jaxLeastUpperBound(nodes ...jaxNode) jaxNode {
	common := map[jaxNode]bool{}
	for m := range jaxUpperBounds[nodes[0]] {
		common[m] = true
	}
	for _, n := range nodes[1:] {
		for m := range common {
			if !jaxUpperBounds[n][m] {
				delete(common, m)
			}
		}
	}
	for m := range common {
		least := true
		for o := range common {
			if !jaxUpperBounds[m][o] {
				least = false
				break
			}
		}
		if least {
			return m
		}
	}
	panic("model: JAX lattice has no least upper bound")
}

// jaxJoinOf is jaxLeastUpperBound of every pair of nodes, tabulated once:
// promotion runs for every case, and the join is associative, so a join of
// any number of nodes is a fold of table lookups.
var jaxJoinOf = func() map[[2]jaxNode]jaxNode {
	t := map[[2]jaxNode]jaxNode{}
	for a := range jaxLattice {
		for b := range jaxLattice {
			t[[2]jaxNode{a, b}] = jaxLeastUpperBound(a, b)
		}
	}
	return t
}()

// jaxJoin is the least upper bound of nodes in the lattice.
func jaxJoin(nodes ...jaxNode) jaxNode {
	j := nodes[0]
	if _, ok := jaxLattice[j]; !ok {
		panic("model: a JAX lattice node of no dtype")
	}
	for _, n := range nodes[1:] {
		var ok bool
		if j, ok = jaxJoinOf[[2]jaxNode{j, n}]; !ok {
			panic("model: a JAX lattice node of no dtype")
		}
	}
	return j
}

// jaxDType materializes a node: weak types take the default dtype of their
// kind, and without x64 every 64-bit type is narrowed.
func jaxDType(n jaxNode, x64 bool) tensor.DType {
	var d tensor.DType
	switch n {
	case jaxWeakInt:
		d = tensor.I64
	case jaxWeakFloat:
		d = tensor.F64
	case jaxWeakComplex:
		d = tensor.C128
	default:
		d = tensor.DType(n)
	}
	if !x64 {
		d = narrow32(d)
	}
	return d
}

// jaxScalarNode is the lattice node of a Python scalar (bool is strong).
func jaxScalarNode(k tensor.ScalarKind) jaxNode {
	switch k {
	case tensor.ScalarInt:
		return jaxWeakInt
	case tensor.ScalarFloat:
		return jaxWeakFloat
	case tensor.ScalarComplex:
		return jaxWeakComplex
	}
	return jn(tensor.Bool)
}

// jaxResultType joins the operands' nodes (tensors already narrowed under x32).
func jaxResultType(args []pyArg, x64 bool) tensor.DType {
	nodes := make([]jaxNode, len(args))
	for i, a := range args {
		if a.isScalar() {
			nodes[i] = jaxScalarNode(a.kind())
		} else {
			nodes[i] = jn(a.t.DType)
		}
	}
	return jaxDType(jaxJoin(nodes...), x64)
}

// jaxNumeric is jax.dtypes.to_numeric_dtype: bool becomes i32, even with x64.
func jaxNumeric(d tensor.DType) tensor.DType {
	if d == tensor.Bool {
		return tensor.I32
	}
	return d
}

// jaxInexact is jax.dtypes.to_inexact_dtype: bool and integers up to 32 bits
// become f32, 64-bit integers f64.
func jaxInexact(d tensor.DType) tensor.DType {
	switch {
	case d.IsFloat() || d.IsComplex():
		return d
	case d.Bits() == 64:
		return tensor.F64
	}
	return tensor.F32
}

// ---------------------------------------------------------------- operand conversion

var (
	intToReducedViaF32 = newRule("python.convert.int-to-reduced-float",
		"integers become bf16 (and in PyTorch f16) through f32: a double rounding for magnitudes above 2^24",
		"casts.md (PyTorch Half(float(x)), ml_dtypes and XLA convert through f32); promotion.md §6.1")
	jaxWeakFloatParse = newRule("jax.scalar.float-parsed-as-default",
		"a Python float operand is first a weak array of the default float dtype (f32 without x64), then converted to the result dtype",
		"promotion.md §4.2, §6.3")
	torchOpmathScalar = newRule("pytorch.scalar.opmath-original",
		"with an f16/bf16 computation dtype, some kernels read a one-element operand at f32 from its original value instead of its f16/bf16 conversion: on CPU the right operand of mul, div, floor_div and trunc_div (iter.is_scalar(2), original_scalar_value<float>); on CUDA any Python scalar of add, sub, mul and div",
		"oracle-00829 (f16 * 0.1 gives f32(0.1) products on cpu and cuda), oracle-00837; promotion.md §6.2")
)

// operand is one argument converted to the compute dtype.
type operand struct {
	t *tensor.Tensor // in the compute dtype; a scalar is 0-dim
	// opmath, when not nil, is the value a PyTorch kernel reads instead: the
	// original value of a one-element operand at f32.
	opmath *float64
}

// intToFloatVia converts the integer v of dtype from to the float dtype d as
// the framework's conversion does.
func (e *evaluation) intToFloatVia(v uint64, from, d tensor.DType) float64 {
	if d == tensor.BF16 || (d == tensor.F16 && e.p.Framework == PyTorch) {
		f := intToFloat(v, from, tensor.F32)
		if r := roundTo(f, d); r != intToFloat(v, from, d) {
			e.use(intToReducedViaF32)
			return r
		}
		return roundTo(f, d)
	}
	return intToFloat(v, from, d)
}

// convertArg returns argument a as a tensor of dtype d (0-dim for a scalar).
func (e *evaluation) convertArg(a pyArg, d tensor.DType) *tensor.Tensor {
	if a.isScalar() {
		t := tensor.New(d)
		e.setScalar(t, a.s)
		return t
	}
	if a.t.DType == d {
		return a.t
	}
	out := tensor.New(d, a.t.Shape...)
	for i := range out.Len() {
		e.convertElem(out, i, a.t, i)
	}
	return out
}

// convertElem stores element j of src into element i of dst.
func (e *evaluation) convertElem(dst *tensor.Tensor, i int, src *tensor.Tensor, j int) {
	s := src.DType
	switch d := dst.DType; {
	case d == tensor.Bool:
		dst.SetBool(i, isNonzero(src, j))
	case d.IsInt():
		if s.IsFloat() || s.IsComplex() {
			panic("model: promotion never converts a float operand to an integer")
		}
		dst.SetInt(i, src.Int(j))
	case s.IsFloat() || s.IsComplex():
		if d.IsComplex() {
			dst.SetComplex(i, complexOf(src, j))
		} else {
			dst.SetFloat(i, src.Float(j))
		}
	default:
		v := e.intToFloatVia(src.Uint(j), s, d.Component())
		if d.IsComplex() {
			dst.SetComplex(i, complex(v, 0))
		} else {
			dst.SetFloat(i, v)
		}
	}
}

// low64 is the two's complement low 64 bits of v.
func low64(v *big.Int) uint64 {
	return new(big.Int).And(v, new(big.Int).SetUint64(^uint64(0))).Uint64()
}

// setScalar stores a Python scalar converted to t's dtype into t's element:
// ints wrap; to a float, PyTorch converts the int64, JAX the weak int32/int64
// it parsed, NumPy goes through a Python float; floats round (JAX without
// x64 rounds to f32 first).
func (e *evaluation) setScalar(t *tensor.Tensor, s *tensor.Scalar) {
	d := t.DType
	switch {
	case s.Kind == tensor.ScalarComplex:
		v := s.Complex()
		if e.p.Framework == JAX && !e.p.X64 {
			e.use(jaxWeakFloatParse) // a weak complex64 first
			v = complex(roundTo(real(v), tensor.F32), roundTo(imag(v), tensor.F32))
		}
		t.SetComplex(0, v)
	case (s.Kind == tensor.ScalarBool || d == tensor.Bool) && (d.IsFloat() || d.IsComplex()):
		t.SetFloat(0, s.Float())
	case s.Kind == tensor.ScalarBool || d == tensor.Bool:
		t.SetInt(0, int64(s.Float()))
	case s.Kind == tensor.ScalarInt && d.IsInt():
		t.SetUint(0, low64(s.Int()))
	case s.Kind == tensor.ScalarInt:
		t.SetFloat(0, e.intScalarToFloat(s.Int(), d.Component()))
	default:
		f := s.Float()
		if e.p.Framework == JAX && !e.p.X64 {
			e.use(jaxWeakFloatParse)
			f = roundTo(f, tensor.F32)
		}
		t.SetFloat(0, f)
	}
}

func (e *evaluation) intScalarToFloat(v *big.Int, d tensor.DType) float64 {
	switch {
	case e.p.Framework == NumPy && d == tensor.BF16:
		e.use(numpyBF16IntRange) // ml_dtypes: a C long, then float, then bf16
		return e.intToFloatVia(low64(v), tensor.I64, d)
	case e.p.Framework == NumPy:
		f, _ := new(big.Float).SetInt(v).Float64()
		return roundTo(f, d)
	case e.p.Framework == JAX && !e.p.X64:
		return e.intToFloatVia(uint64(int64(int32(low64(v)))), tensor.I32, d)
	}
	return e.intToFloatVia(low64(v), tensor.I64, d)
}

// originalAtF32 is the value PyTorch's original_scalar_value<float> reads:
// the first element of the operand before its conversion, cast to f32.
func (e *evaluation) originalAtF32(a pyArg) float64 {
	if a.isScalar() {
		if a.kind() == tensor.ScalarInt {
			return intToFloat(low64(a.s.Int()), tensor.I64, tensor.F32)
		}
		return roundTo(a.s.Float(), tensor.F32)
	}
	if a.t.DType.IsFloat() {
		return roundTo(a.t.Float(0), tensor.F32)
	}
	return intToFloat(a.t.Uint(0), a.t.DType, tensor.F32)
}

// setOpmath marks the operands PyTorch reads at f32 from their original value.
func (b *pyBin) setOpmath() {
	e := b.e
	if e.p.Framework != PyTorch || (b.compute != tensor.F16 && b.compute != tensor.BF16) {
		return
	}
	for k, a := range b.args {
		var use bool
		if e.p.Device == CUDA {
			use = a.isScalar() && (b.op == "add" || b.op == "sub" || b.op == "mul" || b.op == "div")
		} else {
			// iter.is_scalar(2): the operand the kernel sees second, after
			// Python reflects a left scalar of mul and div (reciprocal * s)
			second := 1
			if (b.op == "mul" || b.op == "div") && b.args[0].isScalar() {
				second = 0
			}
			oneElem := a.isScalar() || a.t.Len() == 1
			use = k == second && oneElem && (b.op == "mul" || b.op == "div" || b.op == "floor_div" || b.op == "trunc_div")
		}
		if use {
			e.use(torchOpmathScalar)
			v := e.originalAtF32(a)
			b.ops[k].opmath = &v
		}
	}
}
