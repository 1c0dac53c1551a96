package tensor

import (
	"fmt"
	"math"
	"math/big"
	"strings"
)

// Cost is what evaluating a case may need: the elements of its inputs and
// an upper bound on the elements of its result. The codec bounds each
// tensor it reads to MaxElements, but a result may be far larger than its
// inputs: [65536, 1] + [1, 65536] broadcasts 2^17 input elements to 2^32,
// and index_select repeats rows as often as its index says.
type Cost struct {
	InputElements  int64
	ResultElements int64
	// Work bounds the multiply-adds beyond one pass over the elements
	// (matmul: the result's elements times k); 0 for the other ops.
	Work int64
}

// BytesPerElement is what one element of a case (input or result) costs
// tfuzz eval at most: the decoded line, the stored words, the model's
// intermediate values and the copies the Rust profiles make. Measured as
// peak RSS with the heap held near live (GOMEMLIMIT=32MiB), over all 18
// profiles, at 2^20 elements: 17 to 25 bytes for elementwise ops, casts,
// reductions and index_select, 29 to 33 for arange, zeros and broadcasts,
// 40 for complex elements (two words each).
const BytesPerElement = 40

// Bytes is the memory the cost stands for when the outcomes of held
// evaluations (profiles) are kept at once.
func (c Cost) Bytes(held int) int64 {
	return (c.InputElements + int64(max(held, 1))*c.ResultElements) * BytesPerElement
}

// Budget bounds what evaluating one case may cost. A case over it is
// refused before anything is evaluated (BudgetError), so that no input,
// however built, makes an evaluator exhaust memory.
type Budget struct {
	MaxResultElements int64 // largest result (default MaxElements, the codec's limit on a tensor)
	MaxBytes          int64 // estimated bytes, Cost.Bytes (default DefaultBudgetBytes)
	MaxWork           int64 // multiply-adds, Cost.Work (default DefaultMaxWork)
}

// DefaultBudgetBytes (640 MiB) lets a case of MaxElements elements, inputs
// and result together (arange(0, 2^24), a unary op on 2^23), be evaluated
// while tfuzz, whose Go heap is held under 800 MiB (cmd/tfuzz), stays under
// 1 GB.
const DefaultBudgetBytes = MaxElements * BytesPerElement

// DefaultBudget is the budget every command applies unless told otherwise.
var DefaultBudget = Budget{MaxResultElements: MaxElements, MaxBytes: DefaultBudgetBytes, MaxWork: DefaultMaxWork}

// DefaultMaxWork (2^28 multiply-adds, a 512 x 1024 x 512 matmul) keeps the
// model's exact matmul of one case within seconds.
const DefaultMaxWork = 1 << 28

// BudgetError is a case over the budget. It says what the case needs and
// what the budget allows.
type BudgetError struct {
	Cost   Cost
	Held   int
	Budget Budget
}

func (e *BudgetError) Error() string {
	if e.Cost.ResultElements > e.Budget.MaxResultElements {
		return fmt.Sprintf("OutOfRange: its result would have up to %d elements, over the limit of %d (2^%d); not evaluated",
			e.Cost.ResultElements, e.Budget.MaxResultElements, bitLen(e.Budget.MaxResultElements))
	}
	if e.Budget.MaxWork > 0 && e.Cost.Work > e.Budget.MaxWork {
		return fmt.Sprintf("OutOfRange: it needs up to %d multiply-adds, over the limit of %d (2^%d); not evaluated",
			e.Cost.Work, e.Budget.MaxWork, bitLen(e.Budget.MaxWork))
	}
	mib := (e.Cost.Bytes(e.Held) + 1<<20 - 1) >> 20 // rounded up: over a budget of 640 MiB is 641
	return fmt.Sprintf("OutOfRange: it needs about %d MiB (%d input and %d result elements, %d profiles held at once), over the budget of %d MiB; not evaluated",
		mib, e.Cost.InputElements, e.Cost.ResultElements, max(e.Held, 1), e.Budget.MaxBytes>>20)
}

func bitLen(n int64) int {
	b := 0
	for n > 1 {
		n >>= 1
		b++
	}
	return b
}

// Check returns a *BudgetError when evaluating c with held outcomes kept
// at once would exceed the budget; zero fields take the defaults.
func (b Budget) Check(c *Case, held int) error {
	if b.MaxResultElements <= 0 {
		b.MaxResultElements = DefaultBudget.MaxResultElements
	}
	if b.MaxBytes <= 0 {
		b.MaxBytes = DefaultBudget.MaxBytes
	}
	if b.MaxWork <= 0 {
		b.MaxWork = DefaultBudget.MaxWork
	}
	cost := CaseCost(c)
	if cost.ResultElements > b.MaxResultElements || cost.Bytes(held) > b.MaxBytes || cost.Work > b.MaxWork {
		return &BudgetError{Cost: cost, Held: held, Budget: b}
	}
	return nil
}

// CaseCost bounds what evaluating c needs, from its shapes and attrs alone.
func CaseCost(c *Case) Cost {
	if c.IsProgram() {
		return programCost(c)
	}
	var cost Cost
	var tensors []*Tensor
	for _, a := range c.Args {
		if a.Tensor != nil {
			tensors = append(tensors, a.Tensor)
			cost.InputElements += inputElements(a.Tensor)
		}
	}
	op, _ := LookupOp(c.Op)
	switch op.Class {
	case ClassUnary, ClassCast, ClassCumsum, ClassToHost, ClassSort:
		for _, t := range tensors {
			cost.ResultElements += int64(t.Len())
		}
	case ClassReduce:
		if len(tensors) == 1 {
			cost.ResultElements = reduceElements(tensors[0], c.Attrs.Dim)
		}

	case ClassBinary, ClassBroadcast, ClassWhere, ClassClamp:
		cost.ResultElements = broadcastElements(tensors)
	case ClassMatmul:
		cost.ResultElements, cost.Work = matmulCost(tensors) // matmul.go
	case ClassCat:
		cost.ResultElements = catElements(tensors)
	case ClassIndexSelect:
		if len(tensors) == 2 {
			cost.ResultElements = indexSelectElements(tensors[0], tensors[1], c.Attrs.Dim)
		}
	case ClassMaskSelect:
		if len(tensors) == 2 {
			cost.ResultElements = maskSelectElements(tensors[0], tensors[1])
		}
	case ClassFromLiteral:
		// every element takes at least one byte of the literal's text
		if c.Attrs.Literal != nil {
			cost.ResultElements = int64(len(*c.Attrs.Literal))
		}
	case ClassArange:
		cost.ResultElements = arangeElements(c.Attrs.Start, c.Attrs.End)
	default:
		// For an op of another class, every tensor argument at the
		// broadcast shape of all of them bounds the result.
		cost.ResultElements = satMul(int64(max(len(tensors), 1)), broadcastElements(tensors))
	}
	if c.Attrs.Shape != nil {
		cost.ResultElements = max(cost.ResultElements, satProduct(c.Attrs.Shape))
	}
	return cost
}

// broadcastElements is the product of the largest size of every dim,
// shapes aligned at their last dim.
func broadcastElements(ts []*Tensor) int64 {
	rank := 0
	for _, t := range ts {
		rank = max(rank, t.Rank())
	}
	n := int64(1)
	for k := 1; k <= rank; k++ {
		size := 0
		for _, t := range ts {
			if r := t.Rank(); r >= k {
				size = max(size, t.Shape[r-k])
			}
		}
		n = satMul(n, int64(size))
	}
	return n
}

// reduceElements is the result size of reducing a along dim: the other
// dims' product, which an empty dim does not bound (sum(i8[0 4096 4096])
// dim=0 has 2^24 elements); all elements reduce to one.
func reduceElements(a *Tensor, dim *int) int64 {
	if dim == nil {
		return 1
	}
	d := *dim
	if d < 0 {
		d += a.Rank()
	}
	if d < 0 || d >= a.Rank() {
		d = -1 // an error for the evaluator; bound it by the worst dim
	}
	var most int64 = 1
	for k := range a.Shape {
		if d >= 0 && k != d {
			continue
		}
		n := int64(1)
		for j, s := range a.Shape {
			if j != k {
				n = satMul(n, int64(s))
			}
		}
		most = max(most, n)
	}
	return most
}

// indexSelectElements is the result size of index_select along dim (each
// dim when dim is absent or out of range, the largest of them).
func indexSelectElements(a, idx *Tensor, dim *int) int64 {
	if a.Rank() == 0 {
		return int64(idx.Len())
	}
	along := func(d int) int64 {
		n := int64(idx.Len())
		for k, s := range a.Shape {
			if k != d {
				n = satMul(n, int64(s))
			}
		}
		return n
	}
	if dim != nil {
		d := *dim
		if d < 0 {
			d += a.Rank()
		}
		if d >= 0 && d < a.Rank() {
			return along(d)
		}
	}
	var most int64
	for d := range a.Shape {
		most = max(most, along(d))
	}
	return most
}

// arangeElements is the length of arange(start, end) with step 1, or
// MaxElements when the texts are not plain numbers (Rust suffixes and
// underscores are read; anything else the evaluator parses itself, and no
// evaluator makes more than MaxElements).
func arangeElements(start, end *string) int64 {
	lo := 0.0
	if start != nil {
		v, ok := plainNumber(*start)
		if !ok {
			return MaxElements
		}
		lo = v
	}
	if end == nil {
		return 0
	}
	hi, ok := plainNumber(*end)
	if !ok {
		return MaxElements
	}
	n := math.Ceil(hi - lo)
	if d, ok := intSpan(start, *end); ok {
		n = d // float64 bounds lose ints beyond 2^53 (-2^63 and -2^63 + 1 are one float64)
	}
	switch {
	case math.IsNaN(n) || n <= 0:
		return 0
	case n >= math.MaxInt64/2:
		return math.MaxInt64 / 2
	}
	return int64(n)
}

// plainNumber reads a number literal, Rust's underscores and type suffix allowed.
func plainNumber(s string) (float64, bool) {
	s = strings.ReplaceAll(strings.TrimSpace(s), "_", "")
	for _, suffix := range []string{"i8", "i16", "i32", "i64", "i128", "isize", "u8", "u16", "u32", "u64", "u128", "usize", "f16", "f32", "f64"} {
		if t, ok := strings.CutSuffix(s, suffix); ok && t != "" && !strings.HasPrefix(t, "0x") {
			s = t
			break
		}
	}
	v, err := ParseFloatText(s)
	return v, err == nil && !math.IsNaN(v) && !math.IsInf(v, 0)
}

func satProduct(shape []int) int64 {
	n := int64(1)
	for _, s := range shape {
		n = satMul(n, int64(s))
	}
	return n
}

// satMul multiplies non-negative counts, saturating instead of overflowing.
func satMul(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	if a > math.MaxInt64/2/b {
		return math.MaxInt64 / 2
	}
	return a * b
}

// intSpan is end - start of two integer literals, exactly, as a float64.
func intSpan(start *string, end string) (float64, bool) {
	lo, hi := new(big.Int), new(big.Int)
	if start != nil {
		if _, ok := lo.SetString(strings.ReplaceAll(strings.TrimSpace(*start), "_", ""), 10); !ok {
			return 0, false
		}
	}
	if _, ok := hi.SetString(strings.ReplaceAll(strings.TrimSpace(end), "_", ""), 10); !ok {
		return 0, false
	}
	f, _ := new(big.Float).SetInt(hi.Sub(hi, lo)).Float64()
	return f, true
}
