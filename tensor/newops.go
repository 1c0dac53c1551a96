package tensor

import (
	"bytes"
	"strings"
)

// The ops and attrs of case format v1 added 2026-12 (spec "Ops and attrs
// added 2026-12"): candle's broadcasting binaries, where, clamp, full (and
// the shifts, which are binary ops), the dtype attr of the creation ops and
// of sum, prod, mean and cumsum, and null args (clamp's bounds not given).
// Their tables join the codec's and the docs' here.

func init() {
	argNames[ClassBroadcast] = []ArgSpec{{"a", "tensor"}, {"b", "tensor"}}
	argNames[ClassWhere] = []ArgSpec{{"condition", "tensor"}, {"a", "tensor or scalar"}, {"b", "tensor or scalar"}}
	argNames[ClassClamp] = []ArgSpec{{"a", "tensor"}, {"min", "tensor, scalar or null"}, {"max", "tensor, scalar or null"}}
	argNames[ClassFull] = []ArgSpec{}

	attrKinds[ClassBroadcast] = []string{"tolerance_ulps"}
	attrKinds[ClassWhere] = nil
	attrKinds[ClassClamp] = nil
	attrKinds[ClassFull] = []string{"shape", "value", "dtype"}
	attrKinds[ClassFromLiteral] = append(attrKinds[ClassFromLiteral], "dtype")
	attrKinds[ClassArange] = append(attrKinds[ClassArange], "dtype")
	attrKinds[ClassReduce] = append(attrKinds[ClassReduce], "dtype")
	attrKinds[ClassCumsum] = append(attrKinds[ClassCumsum], "dtype")

	attrDocs[ClassFull] = map[string]AttrSpec{
		"shape": {Type: "[int]", Doc: "the shape", Required: true},
		"value": {Type: "string", Doc: `the fill value as literal text: "7", "0.5", "true", "nan"; Rust suffixes ("7u8") in Rust profiles`, Required: true},
		"dtype": {Type: "dtype", Doc: "the element type; absent: the framework's type for the literal"},
	}
	attrDocs[ClassFromLiteral]["dtype"] = AttrSpec{Type: "dtype", Doc: "the dtype argument (torch.tensor(lit, dtype=...)); absent: the literal's own"}
	attrDocs[ClassArange]["dtype"] = AttrSpec{Type: "dtype", Doc: "the dtype argument (np.arange(..., dtype=...)); absent: the bounds' own"}
	attrDocs[ClassReduce]["dtype"] = AttrSpec{Type: "dtype", Doc: "sum, prod, mean: the dtype the input is converted to and accumulated in, and the result's (a.sum(dtype=...))"}
	attrDocs[ClassCumsum]["dtype"] = AttrSpec{Type: "dtype", Doc: "the dtype the input is converted to and accumulated in, and the result's"}
	attrDocs[ClassCumsum]["dim"] = AttrSpec{Type: "int", Doc: "the dimension to sum along; absent: NumPy and JAX flatten, PyTorch requires it"}
}

// dtypeReductions are the reductions that take a dtype argument.
var dtypeReductions = map[string]bool{"sum": true, "prod": true, "mean": true}

// attrNames lists the attrs the op takes, in the order of its class.
func (op OpInfo) attrNames() []string {
	var names []string
	for _, n := range attrKinds[op.Class] {
		if op.takesAttr(n) {
			names = append(names, n)
		}
	}
	return names
}

// takesAttr reports whether the op takes the attr called name: its class
// does, and it is not a dtype on a reduction without a dtype argument.
func (op OpInfo) takesAttr(name string) bool {
	if !contains(attrKinds[op.Class], name) {
		return false
	}
	return name != "dtype" || op.Class != ClassReduce || dtypeReductions[op.Name]
}

// tensorOnlyArg reports whether arg i of a class that takes scalars must
// still be a tensor: where's condition, clamp's input.
func tensorOnlyArg(class OpClass, i int) bool {
	return i == 0 && (class == ClassWhere || class == ClassClamp)
}

// nullableArg reports whether arg i may be JSON null: clamp's min and max.
func nullableArg(class OpClass, i int) bool {
	return class == ClassClamp && i > 0
}

func isJSONNull(data []byte) bool { return string(bytes.TrimSpace(data)) == "null" }

// BroadcastBase is the op of the catalog a broadcast_* op computes
// ("broadcast_mul" -> "mul"), or "" for another op.
func BroadcastBase(op string) string {
	if !strings.HasPrefix(op, "broadcast_") { // most ops: no lookup
		return ""
	}
	if o, ok := LookupOp(op); ok && o.Class == ClassBroadcast {
		return op[len("broadcast_"):]
	}
	return ""
}
