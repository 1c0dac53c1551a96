package tensor

import (
	"errors"
	"strings"
	"testing"
)

func TestCaseCost(t *testing.T) {
	shaped := func(d DType, shape ...int) Arg { return Arg{Tensor: New(d, shape...)} }
	str := func(s string) *string { return &s }
	dim := func(d int) *int { return &d }
	tests := []struct {
		name           string
		c              Case
		input, results int64
	}{
		{"elementwise", Case{Op: "add", Args: []Arg{shaped(I8, 3, 4), shaped(I8, 3, 4)}}, 24, 12},
		{"broadcast amplifies", Case{Op: "add", Args: []Arg{shaped(I8, 65536, 1), shaped(I8, 1, 65536)}}, 131072, 1 << 32},
		{"scalar operand", Case{Op: "mul", Args: []Arg{shaped(F32, 5), {Scalar: &Scalar{Text: "2", Kind: ScalarInt}}}}, 5, 5},
		{"index_select repeats rows", Case{Op: "index_select", Args: []Arg{shaped(I8, 1, 65536), shaped(I64, 65536)}, Attrs: Attrs{Dim: dim(0)}},
			131072, 1 << 32},
		{"index_select along the other dim", Case{Op: "index_select", Args: []Arg{shaped(I8, 2, 3), shaped(I64, 5)}, Attrs: Attrs{Dim: dim(-1)}}, 11, 10},
		{"index_select without dim takes the worst", Case{Op: "index_select", Args: []Arg{shaped(I8, 2, 3), shaped(I64, 5)}}, 11, 15},
		{"reduction of all", Case{Op: "sum", Args: []Arg{shaped(U8, 7)}}, 7, 1},
		{"reduction along a dim", Case{Op: "sum", Args: []Arg{shaped(U8, 3, 7)}, Attrs: Attrs{Dim: dim(1)}}, 21, 3},
		{"reduction of an empty dim amplifies", Case{Op: "sum", Args: []Arg{shaped(U8, 0, 4096, 4096)}, Attrs: Attrs{Dim: dim(0)}}, 0, 1 << 24},
		{"arange", Case{Op: "arange", Attrs: Attrs{Start: str("0.5"), End: str("10")}}, 0, 10},
		{"arange with Rust suffixes", Case{Op: "arange", Attrs: Attrs{Start: str("1_000i64"), End: str("2_000i64")}}, 0, 1000},
		{"arange of 1e18", Case{Op: "arange", Attrs: Attrs{End: str("1e18")}}, 0, 1e18},
		{"arange of an unknown text", Case{Op: "arange", Attrs: Attrs{End: str("0x7fff_ffff")}}, 0, MaxElements},
		{"empty arange", Case{Op: "arange", Attrs: Attrs{Start: str("5"), End: str("1")}}, 0, 0},
		{"literal", Case{Op: "from_literal", Attrs: Attrs{Literal: str("[1, 2]")}}, 0, 6},
		{"zeros", Case{Op: "zeros", Attrs: Attrs{Shape: []int{4096, 4096}}}, 0, 1 << 24},
		{"a view holds its storage and its elements", Case{Op: "neg", Args: []Arg{{Tensor: expanded(1 << 20)}}}, 1 + 1<<20, 1 << 20},
		{"a program holds every step's result", Case{Format: 2, Args: []Arg{shaped(U8, 1000)}, Steps: []Step{
			{Op: "cast", Args: []StepArg{InputArg(0)}, Attrs: Attrs{To: I64}},
			{Op: "sum", Args: []StepArg{StepResult(0)}}}}, 1000, 1001},
		{"a step broadcasts an earlier result", Case{Format: 2, Args: []Arg{shaped(I8, 65536, 1), shaped(I8, 1, 65536)}, Steps: []Step{
			{Op: "add", Args: []StepArg{InputArg(0), InputArg(1)}},
			{Op: "neg", Args: []StepArg{StepResult(0)}}}}, 131072, 1 << 33},
		{"a result of unknown shape is bounded by products", Case{Format: 2, Args: []Arg{shaped(I8, 4096, 1)}, Steps: []Step{
			{Op: "from_literal", Attrs: Attrs{Literal: str("[1, 2]")}},
			{Op: "add", Args: []StepArg{StepResult(0), InputArg(0)}}}}, 4096, 6 + 6*4096},
		// a literal of unknown shape ([[1], [1], ...]: 16000 rows) broadcast
		// against a row of 65536 would make 10^9 elements
		{"broadcast_* of a result of unknown shape", Case{Format: 2, Args: []Arg{shaped(U8, 1, 65536)}, Steps: []Step{
			{Op: "from_literal", Attrs: Attrs{Literal: str("[[1], [1]]")}},
			{Op: "broadcast_add", Args: []StepArg{StepResult(0), InputArg(0)}}}}, 65536, 10 + 10*65536},
		{"where of a result of unknown shape", Case{Format: 2, Args: []Arg{shaped(U8, 1, 65536)}, Steps: []Step{
			{Op: "from_literal", Attrs: Attrs{Literal: str("[[1], [1]]")}},
			{Op: "where", Args: []StepArg{StepResult(0), InputArg(0), InputArg(0)}}}}, 65536, 10 + 10*65536*65536},
		{"clamp by a result of unknown shape", Case{Format: 2, Args: []Arg{shaped(U8, 1, 65536)}, Steps: []Step{
			{Op: "from_literal", Attrs: Attrs{Literal: str("[[1], [1]]")}},
			{Op: "clamp", Args: []StepArg{InputArg(0), StepResult(0), LiteralArg(Arg{})}}}}, 65536, 10 + 10*65536},
		{"index_select of a result of unknown shape", Case{Format: 2, Args: []Arg{shaped(I64, 65536)}, Steps: []Step{
			{Op: "from_literal", Attrs: Attrs{Literal: str("[[1], [1]]")}},
			{Op: "index_select", Args: []StepArg{StepResult(0), InputArg(0)}, Attrs: Attrs{Dim: dim(1)}}}}, 65536, 10 + 10*65536},
		// an empty [65536, 65536, 0] (no element) reduced along its empty dim
		{"a reduction of an empty broadcast", Case{Format: 2, Steps: []Step{
			{Op: "full", Attrs: Attrs{Shape: []int{65536, 1, 0}, Value: str("1")}},
			{Op: "full", Attrs: Attrs{Shape: []int{1, 65536, 0}, Value: str("1")}},
			{Op: "broadcast_add", Args: []StepArg{StepResult(0), StepResult(1)}},
			{Op: "sum", Args: []StepArg{StepResult(2)}, Attrs: Attrs{Dim: dim(2)}}}}, 0, 1 + 1 + 0 + 1<<32}, // a creation op counts at least 1
		{"a reduction of an empty result of unknown shape", Case{Format: 2, Steps: []Step{
			{Op: "zeros", Attrs: Attrs{Shape: []int{65536, 65536, 0}}},
			{Op: "from_literal", Attrs: Attrs{Literal: str("1")}},
			{Op: "add", Args: []StepArg{StepResult(0), StepResult(1)}},
			// zeros 1, the literal 1, the add the spans' product 2^32, the sum
			// at most its operand's span, which the placeholder caps at 2^24+1
			{Op: "sum", Args: []StepArg{StepResult(2)}, Attrs: Attrs{Dim: dim(2)}}}}, 0, 1 + 1 + 1<<32 + 1<<24 + 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := CaseCost(&tt.c)
			if got.InputElements != tt.input || got.ResultElements != tt.results {
				t.Errorf("CaseCost = %+v, want %d input and %d result elements", got, tt.input, tt.results)
			}
		})
	}
}

// expanded is a view of one element broadcast to n.
func expanded(n int) *Tensor {
	t, err := NewView(New(I8, 1), View{Base: []int{1}, Expand: []int{n}})
	if err != nil {
		panic(err)
	}
	return t
}

func TestBudgetCheck(t *testing.T) {
	big := &Case{Op: "add", Args: []Arg{{Tensor: New(I8, 65536, 1)}, {Tensor: New(I8, 1, 65536)}}}
	var be *BudgetError
	if err := DefaultBudget.Check(big, 1); !errors.As(err, &be) || !strings.Contains(err.Error(), "OutOfRange: its result would have up to 4294967296 elements") {
		t.Errorf("broadcast to 2^32: got %v", err)
	}
	unary := &Case{Op: "neg", Args: []Arg{{Tensor: New(I8, 1<<23)}}}
	if err := DefaultBudget.Check(unary, 1); err != nil {
		t.Errorf("a unary op on 2^23 elements: %v", err)
	}
	if err := (Budget{MaxBytes: 100 << 20}).Check(unary, 1); !errors.As(err, &be) || !strings.Contains(err.Error(), "over the budget of 100 MiB") {
		t.Errorf("a small budget: got %v", err)
	}
	if err := DefaultBudget.Check(unary, 18); err == nil {
		t.Error("18 outcomes of 2^23 elements held at once fit the default budget")
	}
	// 2^24 result and 8192 input elements are 320 KiB over 640 MiB
	just := &Case{Op: "add", Args: []Arg{{Tensor: New(I8, 4096, 1)}, {Tensor: New(I8, 1, 4096)}}}
	if err := DefaultBudget.Check(just, 1); err == nil || !strings.Contains(err.Error(), "needs about 641 MiB") {
		t.Errorf("just over the budget: got %v, want it said as 641 MiB", err)
	}
}
