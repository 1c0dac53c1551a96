package tensor

import "testing"

// TestEveryOpIsDescribed: every class of the catalog has its argument names
// (as many as the codec reads) and a doc for every attr the codec accepts,
// so that tfuzz ops and docs/case-format.md describe every op whole.
func TestEveryOpIsDescribed(t *testing.T) {
	for _, op := range Ops {
		n, _ := arity(op.Class)
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
			err := checkRequiredAttrs(Attrs{}, op)
			fe, ok := err.(*fieldError)
			if !ok || fe.field != "attrs."+spec.Name {
				t.Errorf("%s without %s: got %v, want an error at attrs.%s", op.Name, spec.Name, err, spec.Name)
			}
		}
	}
}
