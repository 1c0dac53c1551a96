package model

import (
	"cmp"
	"math"
	"slices"
	"sort"

	"github.com/tfuzz/tfuzz/tensor"
)

// The order sort and argsort put a row in, for every framework: a strict
// weak order on the row's elements (the framework's comparator, with its
// direction and its place for NaN), what becomes of elements it holds equal
// (kept in input order by a stable sort, reversed by JAX's lax.rev of an
// ascending sort, or left open), and the rows a framework leaves open
// entirely. The row is sorted by the order with Go's stable sort, so equal
// elements come out in input order before the tie rule applies; an open
// group of equal elements makes its positions "?" where they could differ:
// in the values when the group holds different bit patterns (-0.0 and +0.0),
// in the indices when it holds more than one element.

// tieRule is what a sort does with elements its order holds equal.
type tieRule uint8

const (
	tiesInputOrder tieRule = iota // a stable sort: the input order
	tiesReversed                  // the reverse of the input order (JAX: lax.rev of a stable ascending sort)
	tiesOpen                      // unspecified: "?" where it matters
)

// elemOrder is a strict weak order on the elements of a tensor, direction
// included, stated by less; key, where it is not nil, is the same order as
// an integer key (key(i) < key(j) exactly when less(x, i, j)) for a real
// element, false where an element has none (a NaN under an order that holds
// NaN incomparable). Sorting by key decodes each element once instead of
// at every comparison; a test checks that both state one order.
type elemOrder struct {
	less func(x *tensor.Tensor, i, j int) bool
	key  func(x *tensor.Tensor, i int) (int64, bool)
}

// The orders of the frameworks, as elemOrders.
var (
	numericOrder      = elemOrder{numericLess, numericKey}
	nanLastOrder      = elemOrder{nanLastLess, nanLastKey}
	nanLastDescOrder  = elemOrder{nanLastGreater, nanLastGreaterKey}
	nanFirstDescOrder = reverse(nanLastOrder)             // `a > b || (isnan(a) && !isnan(b))`: PyTorch's KeyValueCompDesc
	jaxKeyOrder       = elemOrder{jaxKeyLess, nanLastKey} // canonicalized keys: -0.0 is +0.0, NaN after +inf
	totalOrder        = elemOrder{totalLess, totalOrderKey}
)

// rowOrder is one framework configuration's order of a row.
type rowOrder struct {
	// elemOrder is the strict weak order, direction included: element i of
	// x sorts before element j.
	elemOrder
	ties tieRule
	// openZeros: a group holding both -0.0 and +0.0 is open whatever the
	// tie rule (a radix or bitonic kernel whose treatment of the sign of
	// zero no source fixes).
	openZeros bool
	// openNaNRows: a row holding a NaN is entirely open (a kernel whose
	// comparisons with NaN are all false, so the network's result depends
	// on where the NaNs start).
	openNaNRows bool
}

// sortedRows is the result of sorting every row of x along one dim.
type sortedRows struct {
	values  *tensor.Tensor // x's dtype and shape
	indices *tensor.Tensor // I64, x's shape: the position in the row each value came from
}

// sortRows sorts x along dim d (a valid dim of x, or any dim of a 0-dim x)
// by order.
func sortRows(x *tensor.Tensor, d int, order rowOrder) sortedRows {
	out := sortedRows{values: tensor.New(x.DType, x.Shape...), indices: tensor.New(tensor.I64, x.Shape...)}
	if x.Len() == 0 {
		return out
	}
	n, stride := 1, 1
	if x.Rank() > 0 {
		n = x.Shape[d]
		stride = tensor.NumElements(x.Shape[d+1:])
	}
	rows := x.Len() / n
	pos := make([]int, n)
	perm := make([]int, n)
	var byKey []keyedPos
	if order.key != nil && !x.DType.IsComplex() {
		byKey = make([]keyedPos, n)
	}
	for r := 0; r < rows; r++ {
		base := (r/stride)*stride*n + r%stride
		for k := range pos {
			pos[k] = base + k*stride
			perm[k] = k
		}
		keyed := byKey != nil && rowKeys(x, pos, order.key, byKey)
		if keyed {
			// (key, position) pairs are distinct: an unstable sort of them
			// is the stable sort by key, in O(n log n)
			slices.SortFunc(byKey, func(a, b keyedPos) int { return cmp.Or(cmp.Compare(a.key, b.key), cmp.Compare(a.k, b.k)) })
			for k, kp := range byKey {
				perm[k] = kp.k
			}
		} else {
			sort.SliceStable(perm, func(a, b int) bool { return order.less(x, pos[perm[a]], pos[perm[b]]) })
		}
		// tiedWithPrevious reports whether the j-th sorted element is equal
		// to the one before it under the order
		tiedWithPrevious := func(j int) bool {
			if keyed {
				return byKey[j-1].key == byKey[j].key
			}
			a, b := pos[perm[j-1]], pos[perm[j]]
			return !order.less(x, a, b) && !order.less(x, b, a)
		}
		openRow := order.openNaNRows && rowHasNaN(x, pos)
		for lo := 0; lo < n; {
			hi := lo + 1
			for hi < n && tiedWithPrevious(hi) {
				hi++
			}
			group := perm[lo:hi]
			ties := order.ties
			if order.openZeros && groupHasBothZeros(x, pos, group) {
				ties = tiesOpen
			}
			if ties == tiesReversed {
				for a, b := 0, len(group)-1; a < b; a, b = a+1, b-1 {
					group[a], group[b] = group[b], group[a]
				}
			}
			sameBits := groupSameValue(x, pos, group)
			for k := lo; k < hi; k++ {
				at := pos[k]
				copyElem(out.values, at, x, pos[perm[k]])
				out.indices.SetInt(at, int64(perm[k]))
				if openRow || ties == tiesOpen && hi-lo > 1 {
					out.indices.SetUnspecified(at)
					if openRow || !sameBits {
						out.values.SetUnspecified(at)
					}
				}
			}
			lo = hi
		}
	}
	return out
}

// keyedPos is an element's key and its position in the row.
type keyedPos struct {
	key int64
	k   int
}

// rowKeys sets byKey[k] to the key of the row's element k and k, and
// reports whether every element has a key.
func rowKeys(x *tensor.Tensor, pos []int, key func(*tensor.Tensor, int) (int64, bool), byKey []keyedPos) bool {
	for k, p := range pos {
		v, ok := key(x, p)
		if !ok {
			return false
		}
		byKey[k] = keyedPos{v, k}
	}
	return true
}

func rowHasNaN(x *tensor.Tensor, pos []int) bool {
	for _, p := range pos {
		if isNaNElem(x, p) {
			return true
		}
	}
	return false
}

// isNaNElem reports a float element that is NaN, or a complex one with a
// NaN part.
func isNaNElem(x *tensor.Tensor, i int) bool {
	switch {
	case x.DType.IsComplex():
		c := x.Complex(i)
		return math.IsNaN(real(c)) || math.IsNaN(imag(c))
	case x.DType.IsFloat():
		return math.IsNaN(x.Float(i))
	}
	return false
}

func groupHasBothZeros(x *tensor.Tensor, pos, group []int) bool {
	if !x.DType.IsFloat() {
		return false
	}
	neg, plus := false, false
	for _, k := range group {
		v := x.Float(pos[k])
		if v == 0 {
			neg = neg || math.Signbit(v)
			plus = plus || !math.Signbit(v)
		}
	}
	return neg && plus
}

// groupSameValue reports whether every element of the group matches every
// other in a comparison of outcomes: the same bits, or NaN (any NaN
// matches any NaN).
func groupSameValue(x *tensor.Tensor, pos, group []int) bool {
	first := pos[group[0]]
	for _, k := range group[1:] {
		at := pos[k]
		switch {
		case x.DType.IsComplex():
			a, b := x.Complex(first), x.Complex(at)
			if !sameFloat(real(a), real(b)) || !sameFloat(imag(a), imag(b)) {
				return false
			}
		case x.DType.IsFloat():
			if !sameFloat(x.Float(first), x.Float(at)) {
				return false
			}
		default:
			if x.Bits(first) != x.Bits(at) {
				return false
			}
		}
	}
	return true
}

// ---------------------------------------------------------------- orders

// numericLess orders two real elements by value (integers exactly, bool
// false before true), floats by <: NaN is neither before nor after.
func numericLess(x *tensor.Tensor, i, j int) bool {
	switch {
	case x.DType.IsFloat():
		return x.Float(i) < x.Float(j)
	case x.DType.IsUnsigned() || x.DType == tensor.Bool:
		return x.Uint(i) < x.Uint(j)
	}
	return x.Int(i) < x.Int(j)
}

// nanLastLess is `a < b || (!isnan(a) && isnan(b))`: ascending, NaN after
// every number, -0.0 equal to +0.0 (PyTorch's KeyValueCompAsc, NumPy's
// less, JAX's comparator on canonicalized keys).
func nanLastLess(x *tensor.Tensor, i, j int) bool {
	if x.DType.IsComplex() {
		return complexNaNLastLess(x.Complex(i), x.Complex(j))
	}
	if x.DType.IsFloat() {
		a, b := x.Float(i), x.Float(j)
		return a < b || !math.IsNaN(a) && math.IsNaN(b)
	}
	return numericLess(x, i, j)
}

// nanLastGreater is NumPy's descending order: `a > b || (!isnan(a) &&
// isnan(b))`, NaN at the end in both directions.
func nanLastGreater(x *tensor.Tensor, i, j int) bool {
	if x.DType.IsComplex() {
		return complexNaNLastGreater(x.Complex(i), x.Complex(j))
	}
	if x.DType.IsFloat() {
		a, b := x.Float(i), x.Float(j)
		return a > b || !math.IsNaN(a) && math.IsNaN(b)
	}
	return numericLess(x, j, i)
}

// complexNaNLastLess is NumPy's complex less: lexicographic on (real,
// imag), NaN parts last ([R + Rj, R + nanj, nan + Rj, nan + nanj]).
func complexNaNLastLess(a, b complex128) bool {
	ra, rb, ia, ib := real(a), real(b), imag(a), imag(b)
	nan := math.IsNaN
	switch {
	case ra < rb:
		return !nan(ia) || nan(ib)
	case ra > rb:
		return nan(ib) && !nan(ia)
	case ra == rb || nan(ra) && nan(rb):
		return ia < ib || nan(ib) && !nan(ia)
	}
	return nan(rb)
}

// complexNaNLastGreater is NumPy's complex greater (descending, NaN parts
// still last).
func complexNaNLastGreater(a, b complex128) bool {
	ra, rb, ia, ib := real(a), real(b), imag(a), imag(b)
	nan := math.IsNaN
	switch {
	case ra > rb:
		return !nan(ia) || nan(ib)
	case ra < rb:
		return nan(ib) && !nan(ia)
	case ra == rb || nan(ra) && nan(rb):
		return ia > ib || nan(ib) && !nan(ia)
	}
	return nan(rb)
}

// jaxKeyLess is JAX's comparator: each float key canonicalized (-0.0 to
// +0.0, every NaN to one NaN) and compared in the total order, where the
// canonical NaN is after +inf; a complex is lexicographic on its
// canonicalized parts.
func jaxKeyLess(x *tensor.Tensor, i, j int) bool {
	if x.DType.IsComplex() {
		a, b := x.Complex(i), x.Complex(j)
		if c := jaxKeyCompare(real(a), real(b)); c != 0 {
			return c < 0
		}
		return jaxKeyCompare(imag(a), imag(b)) < 0
	}
	if x.DType.IsFloat() {
		return jaxKeyCompare(x.Float(i), x.Float(j)) < 0
	}
	return numericLess(x, i, j)
}

// jaxKeyCompare compares canonicalized float keys: -1, 0 or 1.
func jaxKeyCompare(a, b float64) int {
	an, bn := math.IsNaN(a), math.IsNaN(b)
	switch {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0 // equal, -0.0 and +0.0 included
}

// totalLess is Rust's f32::total_cmp / f64::total_cmp as `Less`: the order
// of the sign-magnitude bits, -NaN < -inf < ... < -0.0 < +0.0 < ... < +inf
// < +NaN (integers by value).
func totalLess(x *tensor.Tensor, i, j int) bool {
	if !x.DType.IsFloat() {
		return numericLess(x, i, j)
	}
	return totalKey(x.Float(i)) < totalKey(x.Float(j))
}

// totalKey maps a float to an integer in total_cmp's order. The value's
// float64 bits keep the sign and the order of every narrower float. A NaN's
// payload orders it too in Rust, but the case format does not encode it (a
// NaN decodes to one bit pattern) and conversions quiet it, so every NaN of
// a sign is one key here: their order among themselves is left open.
func totalKey(v float64) int64 {
	if math.IsNaN(v) {
		v = math.Copysign(math.NaN(), v)
	}
	b := int64(math.Float64bits(v))
	if b < 0 {
		b ^= math.MaxInt64
	}
	return b
}

// reverse returns the order that puts j before i where o puts i first.
func reverse(o elemOrder) elemOrder {
	r := elemOrder{less: func(x *tensor.Tensor, i, j int) bool { return o.less(x, j, i) }}
	if o.key != nil {
		r.key = func(x *tensor.Tensor, i int) (int64, bool) {
			k, ok := o.key(x, i)
			return ^k, ok // -k-1: the reverse order, without overflow
		}
	}
	return r
}

// ------------------------------------------------------------------ keys

// intKey is an integer element's value in int64 order (unsigned words and
// bool with the sign bit flipped).
func intKey(x *tensor.Tensor, i int) int64 {
	if x.DType.IsUnsigned() || x.DType == tensor.Bool {
		return int64(x.Uint(i) ^ 1<<63)
	}
	return x.Int(i)
}

// zeroKey is totalKey with -0.0 taken as +0.0 (orders that hold them equal).
func zeroKey(v float64) int64 {
	if v == 0 {
		v = 0
	}
	return totalKey(v)
}

// numericKey is numericLess as a key: none for a NaN.
func numericKey(x *tensor.Tensor, i int) (int64, bool) {
	if !x.DType.IsFloat() {
		return intKey(x, i), true
	}
	v := x.Float(i)
	return zeroKey(v), !math.IsNaN(v)
}

// nanLastKey is nanLastLess (and jaxKeyLess) as a key: every NaN after
// +inf, equal to one another.
func nanLastKey(x *tensor.Tensor, i int) (int64, bool) {
	if !x.DType.IsFloat() {
		return intKey(x, i), true
	}
	v := x.Float(i)
	if math.IsNaN(v) {
		return math.MaxInt64, true
	}
	return zeroKey(v), true
}

// nanLastGreaterKey is nanLastGreater as a key: numbers descending, every
// NaN last.
func nanLastGreaterKey(x *tensor.Tensor, i int) (int64, bool) {
	if !x.DType.IsFloat() {
		return ^intKey(x, i), true
	}
	v := x.Float(i)
	if math.IsNaN(v) {
		return math.MaxInt64, true
	}
	return ^zeroKey(v), true
}

// totalOrderKey is totalLess as a key.
func totalOrderKey(x *tensor.Tensor, i int) (int64, bool) {
	if !x.DType.IsFloat() {
		return intKey(x, i), true
	}
	return totalKey(x.Float(i)), true
}
