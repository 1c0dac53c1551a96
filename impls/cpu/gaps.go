package cpu

import (
	"errors"
	"strconv"
	"strings"

	"github.com/tfuzz/tfuzz/tensor"
)

// The gaps of the engine's coverage (tensor.GapLister): the cases of its
// profiles that the model answers but the engine does not implement. The
// engine claims every other case the model answers, so that a campaign
// reports a decline outside these gaps as a lost coverage: a Supports that
// starts declining what the engine implements would otherwise pass every
// campaign, since a declined case is never compared.
//
// The list is written from what the engine leaves out, by op and operand
// kinds alone, apart from the families' Supports code: the two must not
// share their tests, or they could not disagree.

// Gap names the gap of the engine's coverage that c falls in under
// profile, or "" when the engine claims c.
func (e *Engine) Gap(profile string, c *tensor.Case) string {
	p := lookupProfile(profile)
	switch {
	case p == nil:
		return "not a profile of the engine"
	case c.IsProgram():
		return "programs: a step's support depends on the results before it, which only running the program tells"
	}
	for _, g := range gaps {
		if g.fw(p.fw) && g.in(c) {
			return g.what
		}
	}
	return ""
}

// gap is one hole in the coverage: the frameworks it is in, and the cases.
type gap struct {
	what string
	fw   func(framework) bool
	in   func(c *tensor.Case) bool
}

func python(fw framework) bool { return fw == fwPyTorch || fw == fwNumPy || fw == fwJAX }
func burnFW(fw framework) bool { return fw == fwBurn }
func anyFW(framework) bool     { return true }

var gaps = []gap{
	{"complex arithmetic in the Python frameworks (complex tensors, Python complex numbers, casts to complex; arange and from_literal with a complex dtype excepted)", python,
		func(c *tensor.Case) bool { return hasComplex(c) && c.Op != "arange" && c.Op != "from_literal" }},
	{"complex matmul", anyFW, func(c *tensor.Case) bool { return c.Op == "matmul" && hasComplex(c) }},
	{"complex inputs in the Rust frameworks without a complex dtype (burn, candle: the model may answer the host data's conversion first)",
		func(fw framework) bool { return fw == fwBurn || fw == fwCandle }, hasComplex},
	{"PyTorch's cumsum of a 0-dim input into another dtype (the model leaves result.fill_'s checked Scalar conversion unsupported)", func(fw framework) bool { return fw == fwPyTorch },
		func(c *tensor.Case) bool {
			if c.Op != "cumsum" || len(c.Args) == 0 {
				return false
			}
			x := argDType(c.Args[0])
			return c.Attrs.DType.Valid() && c.Attrs.Dim != nil && c.Args[0].Tensor != nil && c.Args[0].Tensor.Rank() == 0 && x != c.Attrs.DType
		}},
	{"the dtype argument in the Rust frameworks, which have none (the model answers unsupported)", func(fw framework) bool { return !python(fw) }, func(c *tensor.Case) bool {
		return c.Attrs.DType.Valid() && c.Op != "zeros" && c.Op != "to_host"
	}},
	{"a Python int outside int64 (NumPy's conversion, PyTorch's low-64-bit one of a float clamp or where)", python, hasHugeInt},
	{"burn's integer pow (ndarray has no powi of Int tensors in the engine)", burnFW, func(c *tensor.Case) bool {
		return c.Op == "pow" && (hasKind(c, tensor.KindInt) || hasKind(c, tensor.KindUint))
	}},
	{"burn binary ops of two dtypes, and Rust bool scalars in them (the conversion order of Flex's release build)", burnFW, func(c *tensor.Case) bool {
		return len(c.Args) == 2 && (mixedDTypes(c) || c.Args[0].Scalar != nil && c.Args[0].Scalar.Kind == tensor.ScalarBool ||
			c.Args[1].Scalar != nil && c.Args[1].Scalar.Kind == tensor.ScalarBool)
	}},
	{"NumPy's bf16 matmul (ml_dtypes registers no matmul loop) and cat of bf16 among three or more dtypes", func(fw framework) bool { return fw == fwNumPy },
		func(c *tensor.Case) bool {
			return (c.Op == "matmul" || c.Op == "cat" && len(c.Args) > 2) && hasDType(c, tensor.BF16)
		}},
	{"JAX's bool matmul, and pow by a u64 exponent (the engine declines a 0-dim one of 2^63 or more)", func(fw framework) bool { return fw == fwJAX },
		func(c *tensor.Case) bool {
			return c.Op == "matmul" && hasDType(c, tensor.Bool) || c.Op == "pow" && len(c.Args) == 2 && argDType(c.Args[1]) == tensor.U64
		}},
	{"burn matmul whose operands' shapes do not fit (Flex's release build checks none)", burnFW, func(c *tensor.Case) bool { return c.Op == "matmul" }},
}

// hasDType reports a tensor argument of dtype d.
func hasDType(c *tensor.Case, d tensor.DType) bool {
	for _, a := range c.Args {
		if argDType(a) == d {
			return true
		}
	}
	return false
}

// hasKind reports a tensor argument of a dtype of kind k.
func hasKind(c *tensor.Case, k tensor.Kind) bool {
	for _, a := range c.Args {
		if argDType(a).Valid() && argDType(a).Kind() == k {
			return true
		}
	}
	return false
}

// hasComplex reports a complex tensor or scalar argument or a complex
// cast target.
func hasComplex(c *tensor.Case) bool {
	if c.Attrs.To.IsComplex() || c.Attrs.DType.IsComplex() {
		return true
	}
	for _, a := range c.Args {
		if a.Scalar != nil && a.Scalar.Kind == tensor.ScalarComplex || a.Tensor != nil && a.Tensor.DType.IsComplex() {
			return true
		}
	}
	return false
}

// hasHugeInt reports a Python int scalar argument outside int64 (full's
// value is implemented: pyfull.go).
func hasHugeInt(c *tensor.Case) bool {
	beyond := func(text string) bool {
		_, err := strconv.ParseInt(strings.ReplaceAll(text, "_", ""), 10, 64)
		return errors.Is(err, strconv.ErrRange)
	}
	for _, a := range c.Args {
		if a.Scalar != nil && a.Scalar.Kind == tensor.ScalarInt && beyond(a.Scalar.Text) {
			return true
		}
	}
	return false
}

func argDType(a tensor.Arg) tensor.DType {
	if a.Tensor == nil {
		return tensor.Invalid
	}
	return a.Tensor.DType
}

// mixedDTypes reports two tensor arguments of different dtypes.
func mixedDTypes(c *tensor.Case) bool {
	a, b := argDType(c.Args[0]), argDType(c.Args[1])
	return a.Valid() && b.Valid() && a != b
}
