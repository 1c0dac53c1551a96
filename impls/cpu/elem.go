package cpu

import (
	"unsafe"

	"github.com/tfuzz/tfuzz/tensor"
)

// Element type sets of the generic kernels. Each dtype has one Go type in
// the engine's compute representation (see buffer.go):
//
//	bool -> uint8 (0 or 1)   u8 -> uint8    i8 -> int8    u16 -> uint16  i16 -> int16
//	u32 -> uint32            i32 -> int32   u64 -> uint64 i64 -> int64
//	f16, bf16 -> float32 (holding an exact f16 / bf16 value)
//	f32 -> float32           f64 -> float64
//
// Complex dtypes are declined by every family for now.
type (
	signedInt interface {
		~int8 | ~int16 | ~int32 | ~int64
	}
	unsignedInt interface {
		~uint8 | ~uint16 | ~uint32 | ~uint64
	}
	integer  interface{ signedInt | unsignedInt }
	floating interface{ ~float32 | ~float64 }
	number   interface{ integer | floating }
)

// goKind is the Go type of a dtype's compute representation, for the one
// switch per op that picks a kernel instantiation.
type goKind uint8

const (
	kU8 goKind = iota // bool and u8
	kI8
	kU16
	kI16
	kU32
	kI32
	kU64
	kI64
	kF32 // f16, bf16 and f32
	kF64
)

// kindOf returns the compute representation of d (d real, not complex).
func kindOf(d tensor.DType) goKind {
	switch d {
	case tensor.Bool, tensor.U8:
		return kU8
	case tensor.I8:
		return kI8
	case tensor.U16:
		return kU16
	case tensor.I16:
		return kI16
	case tensor.U32:
		return kU32
	case tensor.I32:
		return kI32
	case tensor.U64:
		return kU64
	case tensor.I64:
		return kI64
	case tensor.F64:
		return kF64
	}
	return kF32
}

// isHalf reports whether d is f16 or bf16 (computed through float32).
func isHalf(d tensor.DType) bool { return d == tensor.F16 || d == tensor.BF16 }

// minOf returns the smallest value of the integer type T.
func minOf[T integer]() T {
	var z T
	if ^z < 0 { // signed: all ones is -1
		return T(1) << (bitsOf[T]() - 1)
	}
	return 0
}

// maxOf returns the largest value of the integer type T.
func maxOf[T integer]() T { return ^minOf[T]() }

// bitsOf returns the width of the integer type T in bits.
func bitsOf[T integer]() uint {
	var z T
	return uint(unsafe.Sizeof(z)) * 8
}
