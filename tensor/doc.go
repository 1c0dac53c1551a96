// Package tensor is tfuzz's shared vocabulary: element types (DType), tensors
// with exact element storage, the Case a generator produces and every
// implementation evaluates, the Outcome it produces, the exact comparison of
// two outcomes, and the case-format v1 codec (docs/case-format.md describes the format).
//
// Elements are stored as raw bit patterns of their dtype, so every value the
// format can carry (-0, NaN, subnormals, the full 64-bit integer range, f16,
// bf16 and complex) survives a round trip bit for bit. Accessors convert to
// the Go type a caller computes in (int64, uint64, float64, complex128).
//
// Both the reference model and the implementations import this package and
// nothing of each other's; everything they must agree on lives here.
package tensor
