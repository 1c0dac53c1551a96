package adapter

import "github.com/tfuzz/tfuzz/tensor"

// The v1 additions of 2026-12 besides views (case format, "Ops and attrs
// added 2026-12", and the complex scalar kind): an adapter reads them only
// when its handshake names FeatureOps2026. A reader of the older catalog
// would answer unsupported for a new op at best, but it would misread the
// new attrs and args of the older ops (sum with a dtype argument summed in
// the input's dtype, a cumsum without dim run along dim 0, a null clamp
// bound or a complex scalar taken for a malformed request), so such a case
// is not sent to it.

// usesOps2026 reports whether the case, or one step of it, holds an op, an
// attr or an argument added 2026-12.
func usesOps2026(c *tensor.Case) bool {
	if !c.IsProgram() {
		return opUsesOps2026(c.Op, c.Attrs) || argsUseOps2026(c.Args)
	}
	if argsUseOps2026(c.Args) { // the program's inputs
		return true
	}
	for _, s := range c.Steps {
		if opUsesOps2026(s.Op, s.Attrs) {
			return true
		}
		for _, a := range s.Args {
			if a.From == tensor.FromLiteral && argsUseOps2026([]tensor.Arg{a.Arg}) {
				return true
			}
		}
	}
	return false
}

// argsUseOps2026 reports a null argument or a complex scalar.
func argsUseOps2026(args []tensor.Arg) bool {
	for _, a := range args {
		if a.IsNull() || a.Scalar != nil && a.Scalar.Kind == tensor.ScalarComplex {
			return true
		}
	}
	return false
}

// opUsesOps2026 reports whether the op, or one of these attrs of it, was
// added 2026-12.
func opUsesOps2026(op string, at tensor.Attrs) bool {
	info, ok := tensor.LookupOp(op)
	if !ok {
		return false // the codec rejects an unknown op before any backend sees it
	}
	switch info.Class {
	case tensor.ClassBroadcast, tensor.ClassWhere, tensor.ClassClamp, tensor.ClassFull,
		tensor.ClassSort, tensor.ClassMaskSelect, tensor.ClassMatmul, tensor.ClassCat:
		return true
	case tensor.ClassBinary:
		return op == "shift_left" || op == "shift_right"
	case tensor.ClassFromLiteral, tensor.ClassArange, tensor.ClassReduce:
		return at.DType.Valid()
	case tensor.ClassCumsum:
		return at.DType.Valid() || at.Dim == nil
	}
	return false
}
