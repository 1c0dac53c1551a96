package cpu

import (
	"math"
	"math/big"
	"strconv"

	"github.com/tfuzz/tfuzz/tensor"
)

// Helpers shared by the families of the Python frameworks.

// narrow32 is the 32-bit dtype JAX without x64 uses for d.
func narrow32(d tensor.DType) tensor.DType {
	if n, ok := x32Narrowed[d]; ok {
		return n
	}
	return d
}

// x32Narrowed are the 64-bit dtypes JAX replaces without x64.
var x32Narrowed = map[tensor.DType]tensor.DType{
	tensor.I64: tensor.I32, tensor.U64: tensor.U32, tensor.F64: tensor.F32, tensor.C128: tensor.C64,
}

// pyInput returns t as the framework holds it after creation from host data:
// JAX without x64 stores 64-bit data in 32 bits (policy
// jax.x32.narrow-inputs): integers keep their low 32 bits, which is the
// same words read as the narrow dtype; f64 (and each part of a c128) rounds
// to f32.
func pyInput(p *profile, t *tensor.Tensor) *tensor.Tensor {
	if p.fw != fwJAX || p.x64 || narrow32(t.DType) == t.DType {
		return t
	}
	n := *t
	n.DType = narrow32(t.DType)
	if t.DType == tensor.F64 || t.DType == tensor.C128 {
		n.Data = make([]uint64, len(t.Data))
		for i, w := range t.Data {
			n.Data[i] = uint64(math.Float32bits(float32(math.Float64frombits(w))))
		}
	}
	return &n
}

// pyInputDType is pyInput's dtype and geometry without its elements (the
// storage is t's, unconverted): what a family plans with.
func pyInputDType(p *profile, t *tensor.Tensor) *tensor.Tensor {
	if p.fw != fwJAX || p.x64 || narrow32(t.DType) == t.DType {
		return t
	}
	n := *t
	n.DType = narrow32(t.DType)
	return &n
}

// fwName is the framework's name in messages.
func fwName(f framework) string {
	switch f {
	case fwPyTorch:
		return "pytorch"
	case fwNumPy:
		return "numpy"
	case fwJAX:
		return "jax"
	case fwCandle:
		return "candle"
	case fwBurn:
		return "burn"
	}
	return "tenferro"
}

// torchName is the name PyTorch's C++ messages give a dtype.
func torchName(d tensor.DType) string {
	switch d {
	case tensor.Bool:
		return "Bool"
	case tensor.U8:
		return "Byte"
	case tensor.I8:
		return "Char"
	case tensor.I16:
		return "Short"
	case tensor.I32:
		return "Int"
	case tensor.I64:
		return "Long"
	case tensor.U16:
		return "UInt16"
	case tensor.U32:
		return "UInt32"
	case tensor.U64:
		return "UInt64"
	case tensor.F16:
		return "Half"
	case tensor.BF16:
		return "BFloat16"
	case tensor.F32:
		return "Float"
	case tensor.F64:
		return "Double"
	case tensor.C64:
		return "ComplexFloat"
	case tensor.C128:
		return "ComplexDouble"
	}
	return d.String()
}

// pyName is the name NumPy and JAX give a dtype.
func pyName(d tensor.DType) string {
	switch d {
	case tensor.Bool:
		return "bool"
	case tensor.U8:
		return "uint8"
	case tensor.I8:
		return "int8"
	case tensor.U16:
		return "uint16"
	case tensor.I16:
		return "int16"
	case tensor.U32:
		return "uint32"
	case tensor.I32:
		return "int32"
	case tensor.U64:
		return "uint64"
	case tensor.I64:
		return "int64"
	case tensor.F16:
		return "float16"
	case tensor.BF16:
		return "bfloat16"
	case tensor.F32:
		return "float32"
	case tensor.F64:
		return "float64"
	}
	return d.String()
}

// pyScalar is a Python scalar operand, parsed once.
type pyScalar struct {
	kind tensor.ScalarKind
	i    int64   // int: the value (the text fits int64); bool: 0 or 1
	f    float64 // float: the literal parsed as float64; bool, int: the value
	// huge: an int outside int64 (i and f unset), which only the checks
	// that reject it read (parseScalarOrHuge)
	huge bool
}

// parseScalar parses s; ok is false for an int outside int64 or bad text.
func parseScalar(s *tensor.Scalar) (pyScalar, bool) {
	switch s.Kind {
	case tensor.ScalarBool:
		switch s.Text {
		case "true":
			return pyScalar{kind: s.Kind, i: 1, f: 1}, true
		case "false":
			return pyScalar{kind: s.Kind}, true
		}
	case tensor.ScalarInt:
		v, err := strconv.ParseInt(s.Text, 10, 64)
		if err != nil {
			return pyScalar{}, false
		}
		return pyScalar{kind: s.Kind, i: v, f: float64(v)}, true
	case tensor.ScalarFloat:
		v, err := tensor.ParseFloatText(s.Text)
		if err != nil {
			return pyScalar{}, false
		}
		return pyScalar{kind: s.Kind, f: v}, true
	}
	return pyScalar{}, false
}

// parseScalarOrHuge is parseScalar that also reads a Python int outside
// int64, as a huge scalar, and a complex number (its kind only): the
// families whose framework rejects such an operand before anything else
// (PyTorch's "Overflow when unpacking long", JAX's parse of a jitted
// argument, the bitwise ops of a complex number) answer it.
func parseScalarOrHuge(s *tensor.Scalar) (pyScalar, bool) {
	if v, ok := parseScalar(s); ok {
		return v, true
	}
	if s.Kind == tensor.ScalarComplex { // its value is read by no family
		return pyScalar{kind: tensor.ScalarComplex}, true
	}
	if _, ok := new(big.Int).SetString(s.Text, 10); ok && s.Kind == tensor.ScalarInt {
		return pyScalar{kind: tensor.ScalarInt, huge: true}, true
	}
	return pyScalar{}, false
}
