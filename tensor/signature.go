package tensor

// What each op takes, for people: tfuzz ops, the errors of the codec and
// docs/case-format.md are written from these tables, and the codec reads
// cases by them (arity, attrKinds), so that the documentation cannot drift
// from what is accepted. A test checks that every class has its entries.

// ArgSpec describes one argument of an op.
type ArgSpec struct {
	Name string // a name for it in docs: "a", "b", "index"
	Kind string // "tensor", "tensor or scalar", ...
}

// AttrSpec describes one attr of an op.
type AttrSpec struct {
	Name     string
	Type     string // JSON type and range: "int", "bool", "dtype", "string", "[int]"
	Doc      string
	Required bool
}

// argNames names the arguments of each class, in order (arity gives their
// number and whether scalars may stand for tensors).
var argNames = map[OpClass][]ArgSpec{
	ClassBinary:      {{"a", "tensor or scalar"}, {"b", "tensor or scalar"}},
	ClassUnary:       {{"a", "tensor"}},
	ClassCast:        {{"a", "tensor"}},
	ClassReduce:      {{"a", "tensor"}},
	ClassCumsum:      {{"a", "tensor"}},
	ClassIndexSelect: {{"a", "tensor"}, {"index", "integer tensor, 1-D"}},
	ClassFromLiteral: {},
	ClassArange:      {},
	ClassZeros:       {},
	ClassFromVec:     {{"v", "tensor, 1-D (the host data)"}},
	ClassToHost:      {{"a", "tensor"}},
}

// attrDocs says what each attr of a class means; a name absent from a
// class's entry takes its meaning from the "" entry.
var attrDocs = map[OpClass]map[string]AttrSpec{
	0: {
		"dim":            {Type: "int", Doc: "the dimension to work along; negative counts from the end"},
		"tolerance_ulps": {Type: "int >= 0", Doc: "float elements match within this many units in the last place"},
	},
	ClassCast: {
		"to":   {Type: "dtype", Doc: "the target dtype", Required: true},
		"mode": {Type: `"cast" or "convert"`, Doc: "tenferro's cast (the default) or convert"},
	},
	ClassReduce: {
		"dim":     {Type: "int", Doc: "the dimension to reduce; absent: all elements"},
		"keepdim": {Type: "bool", Doc: "keep the reduced dimension with size 1"},
	},
	ClassCumsum:      {"dim": {Type: "int", Doc: "the dimension to sum along (NumPy and JAX flatten when absent)"}},
	ClassIndexSelect: {"dim": {Type: "int", Doc: "the dimension the index selects along"}},
	ClassFromLiteral: {"literal": {Type: "string", Doc: `the literal's source text: "[1.0, 2.0]", "3", "[true, false]", "[1_i64, 2]"`, Required: true}},
	ClassArange: {
		"start": {Type: "string", Doc: `the start as literal text ("0", "0.5"); absent: 0`},
		"end":   {Type: "string", Doc: `the end (exclusive) as literal text`, Required: true},
	},
	ClassZeros: {
		"shape": {Type: "[int]", Doc: "the shape", Required: true},
		"dtype": {Type: "dtype", Doc: "the element type; absent: the framework's default"},
	},
	ClassFromVec: {"shape": {Type: "[int]", Doc: "the shape the data is given", Required: true}},
	ClassToHost: {
		"dtype": {Type: "dtype", Doc: "the element type it is read back as", Required: true},
		"rank":  {Type: "int 0..8", Doc: "the rank it is read back as (to_vec1, to_vec2, to_scalar)"},
	},
}

// Args describes the op's arguments.
func (op OpInfo) Args() []ArgSpec { return argNames[op.Class] }

// Attrs describes the attrs the op takes.
func (op OpInfo) Attrs() []AttrSpec {
	var specs []AttrSpec
	for _, name := range op.attrNames() {
		spec, ok := attrDocs[op.Class][name]
		if !ok {
			spec = attrDocs[0][name]
		}
		spec.Name = name
		specs = append(specs, spec)
	}
	return specs
}

// has reports whether the attr called name is present.
func (a Attrs) has(name string) bool {
	switch name {
	case "dim":
		return a.Dim != nil
	case "keepdim":
		return a.Keepdim != nil
	case "to":
		return a.To.Valid()
	case "mode":
		return a.Mode != ""
	case "literal":
		return a.Literal != nil
	case "start":
		return a.Start != nil
	case "end":
		return a.End != nil
	case "shape":
		return a.Shape != nil
	case "dtype":
		return a.DType.Valid()
	case "rank":
		return a.Rank != nil
	case "tolerance_ulps":
		return a.ToleranceULPs != 0
	case "value":
		return a.Value != nil
	case "descending":
		return a.Descending != nil
	case "stable":
		return a.Stable != nil
	}
	return false
}
