package tensor

import "testing"

// TestEveryOpIsDescribed: every class of the catalog has its argument names
// (as many as the codec reads) and a doc for every attr the codec accepts,
// so that tfuzz ops and docs/case-format.md describe every op whole.
func TestEveryOpIsDescribed(t *testing.T) {
	for _, op := range Ops {
		n, _ := arity(op.Class)
		if n < 0 {
			n = 1 // one name for a list of any length
		}
		if args, ok := argNames[op.Class]; !ok || len(args) != n {
			t.Errorf("%s: argNames has %d names, the codec reads %d args", op.Name, len(argNames[op.Class]), n)
		}
		for _, spec := range op.Attrs() {
			if spec.Type == "" || spec.Doc == "" {
				t.Errorf("%s: attr %s has no type or doc in attrDocs", op.Name, spec.Name)
			}
		}
	}
}

// TestRequiredAttrsAreEnforced: a case without an attr its op's table
// marks required is rejected, naming that attr.
func TestRequiredAttrsAreEnforced(t *testing.T) {
	for _, op := range Ops {
		for _, spec := range op.Attrs() {
			if !spec.Required {
				continue
			}
			err := checkRequiredAttrs(requiredExcept(op, spec.Name), op)
			fe, ok := err.(*fieldError)
			if !ok || fe.field != "attrs."+spec.Name {
				t.Errorf("%s without %s: got %v, want an error at attrs.%s", op.Name, spec.Name, err, spec.Name)
			}
		}
	}
}

// requiredExcept returns attrs holding every attr the op requires but the
// one called name.
func requiredExcept(op OpInfo, name string) Attrs {
	var a Attrs
	text := "1"
	for _, spec := range op.Attrs() {
		if !spec.Required || spec.Name == name {
			continue
		}
		switch spec.Name {
		case "to":
			a.To = I8
		case "dtype":
			a.DType = I8
		case "literal":
			a.Literal = &text
		case "end":
			a.End = &text
		case "value":
			a.Value = &text
		case "shape":
			a.Shape = []int{1}
		default:
			panic("requiredExcept: no value for required attr " + spec.Name)
		}
	}
	return a
}
