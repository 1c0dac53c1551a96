package model

import "github.com/tfuzz/tfuzz/tensor"

// torchName is the name PyTorch's C++ messages give a dtype ("not implemented for 'Byte'").
func torchName(d tensor.DType) string { return torchNames[d] }

var torchNames = [tensor.C128 + 1]string{
	tensor.Bool: "Bool", tensor.U8: "Byte", tensor.I8: "Char", tensor.I16: "Short",
	tensor.I32: "Int", tensor.I64: "Long", tensor.U16: "UInt16", tensor.U32: "UInt32",
	tensor.U64: "UInt64", tensor.F16: "Half", tensor.BF16: "BFloat16", tensor.F32: "Float",
	tensor.F64: "Double", tensor.C64: "ComplexFloat", tensor.C128: "ComplexDouble",
}

// pyName is the name NumPy, JAX and PyTorch's Python layer give a dtype ("int8", "bfloat16").
func pyName(d tensor.DType) string { return pyNames[d] }

var pyNames = [tensor.C128 + 1]string{
	tensor.Bool: "bool", tensor.U8: "uint8", tensor.I8: "int8", tensor.I16: "int16",
	tensor.I32: "int32", tensor.I64: "int64", tensor.U16: "uint16", tensor.U32: "uint32",
	tensor.U64: "uint64", tensor.F16: "float16", tensor.BF16: "bfloat16", tensor.F32: "float32",
	tensor.F64: "float64", tensor.C64: "complex64", tensor.C128: "complex128",
}

// cppName is the C++ type c10's overflow messages name for a dtype
// ("value cannot be converted to type uint8_t without overflow").
func cppName(d tensor.DType) string { return cppNames[d] }

var cppNames = [tensor.C128 + 1]string{
	tensor.Bool: "bool", tensor.U8: "uint8_t", tensor.I8: "int8_t", tensor.I16: "int16_t",
	tensor.I32: "int", tensor.I64: "int64_t", tensor.U16: "uint16_t", tensor.U32: "uint32_t",
	tensor.U64: "uint64_t", tensor.F16: "at::Half", tensor.BF16: "at::BFloat16", tensor.F32: "float",
	tensor.F64: "double", tensor.C64: "c10::complex<float>", tensor.C128: "c10::complex<double>",
}
