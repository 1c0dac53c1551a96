package tensor

import (
	"fmt"
	"math"
)

// DType is an element type of the case format. The zero value is invalid.
type DType uint8

// The dtypes of the case format, in the spec's order.
const (
	Invalid DType = iota
	Bool
	U8
	I8
	U16
	I16
	U32
	I32
	U64
	I64
	F16
	BF16
	F32
	F64
	C64
	C128
)

// AllDTypes lists every valid dtype in the spec's order.
var AllDTypes = []DType{Bool, U8, I8, U16, I16, U32, I32, U64, I64, F16, BF16, F32, F64, C64, C128}

// Kind is the category of a dtype, ordered as promotion lattices order them.
type Kind uint8

const (
	KindBool Kind = iota
	KindUint
	KindInt
	KindFloat
	KindComplex
)

func (k Kind) String() string {
	return [...]string{"bool", "unsigned", "signed", "float", "complex"}[k]
}

var dtypeInfo = [...]struct {
	name string
	kind Kind
	bits int
}{
	Invalid: {"invalid", KindBool, 0},
	Bool:    {"bool", KindBool, 8},
	U8:      {"u8", KindUint, 8},
	I8:      {"i8", KindInt, 8},
	U16:     {"u16", KindUint, 16},
	I16:     {"i16", KindInt, 16},
	U32:     {"u32", KindUint, 32},
	I32:     {"i32", KindInt, 32},
	U64:     {"u64", KindUint, 64},
	I64:     {"i64", KindInt, 64},
	F16:     {"f16", KindFloat, 16},
	BF16:    {"bf16", KindFloat, 16},
	F32:     {"f32", KindFloat, 32},
	F64:     {"f64", KindFloat, 64},
	C64:     {"c64", KindComplex, 64},
	C128:    {"c128", KindComplex, 128},
}

// ParseDType returns the dtype named s ("i64", "bf16", ...).
func ParseDType(s string) (DType, error) {
	for _, d := range AllDTypes {
		if dtypeInfo[d].name == s {
			return d, nil
		}
	}
	return Invalid, fmt.Errorf("unknown dtype %s (%s)", Quote(s), Choices(s, DTypeNames(), ""))
}

// String returns the case-format name of d.
func (d DType) String() string {
	if int(d) >= len(dtypeInfo) {
		return fmt.Sprintf("dtype(%d)", uint8(d))
	}
	return dtypeInfo[d].name
}

// Valid reports whether d is one of the spec's dtypes.
func (d DType) Valid() bool { return d > Invalid && int(d) < len(dtypeInfo) }

// Kind returns the category of d.
func (d DType) Kind() Kind { return dtypeKinds[d] }

// dtypeKinds is Kind by dtype, in a table a uint8 indexes without a bounds
// check: element accessors ask for it at every element.
var dtypeKinds = func() (kinds [256]Kind) {
	for d, info := range dtypeInfo {
		kinds[d] = info.kind
	}
	return kinds
}()

// Bits returns the storage width of one element in bits (bool: 8).
func (d DType) Bits() int { return dtypeInfo[d].bits }

// IsInt reports whether d is a signed or unsigned integer type (not bool).
func (d DType) IsInt() bool { k := d.Kind(); return k == KindInt || k == KindUint }

// IsSigned reports whether d is a signed integer type.
func (d DType) IsSigned() bool { return d.Kind() == KindInt }

// IsUnsigned reports whether d is an unsigned integer type.
func (d DType) IsUnsigned() bool { return d.Kind() == KindUint }

// IsFloat reports whether d is a real floating-point type.
func (d DType) IsFloat() bool { return d.Kind() == KindFloat }

// IsComplex reports whether d is a complex type.
func (d DType) IsComplex() bool { return d == C64 || d == C128 }

// Component returns the real type of a complex dtype's parts (c64: f32), or d itself.
func (d DType) Component() DType {
	switch d {
	case C64:
		return F32
	case C128:
		return F64
	}
	return d
}

// MinInt returns the smallest value of a signed integer type (0 for unsigned and bool).
func (d DType) MinInt() int64 {
	if !d.IsSigned() {
		return 0
	}
	return -1 << (d.Bits() - 1)
}

// MaxInt returns the largest value of a signed type; for unsigned types use MaxUint.
func (d DType) MaxInt() int64 {
	switch {
	case d == Bool:
		return 1
	case d.IsSigned():
		return 1<<(d.Bits()-1) - 1
	case d.IsUnsigned() && d.Bits() < 64:
		return 1<<d.Bits() - 1
	}
	return math.MaxInt64
}

// MaxUint returns the largest value of an unsigned type (bool: 1).
func (d DType) MaxUint() uint64 {
	if d == Bool {
		return 1
	}
	if d.IsSigned() {
		return uint64(d.MaxInt())
	}
	return ^uint64(0) >> (64 - d.Bits())
}

// MarshalText encodes d as its case-format name.
func (d DType) MarshalText() ([]byte, error) {
	if !d.Valid() {
		return nil, fmt.Errorf("invalid dtype %d", uint8(d))
	}
	return []byte(d.String()), nil
}

// UnmarshalText decodes a case-format dtype name.
func (d *DType) UnmarshalText(b []byte) error {
	v, err := ParseDType(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}
