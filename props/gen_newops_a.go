package props

import (
	"slices"

	"github.com/tfuzz/tfuzz/tensor"
)

// Drawing the ops added 2026-12 (issue 16, first half): candle's
// broadcast_* (binary operands without scalars, shapes that broadcast),
// where (a condition of every dtype a profile answers, values that are
// tensors or scalars), clamp (bounds that are tensors, scalars or null,
// NaN and min > max among them) and full. The shifts are binary ops and
// take their counts from opSpecials (shiftCounts).

// isNewClass reports the classes drawn here.
func isNewClass(c tensor.OpClass) bool {
	return c == tensor.ClassBroadcast || c == tensor.ClassWhere || c == tensor.ClassClamp || c == tensor.ClassFull
}

// condDTypes are the condition dtypes where cases use.
var condDTypes = []tensor.DType{tensor.Bool, tensor.U8, tensor.U32, tensor.I64, tensor.I32, tensor.I16, tensor.F32}

// shiftCounts are the counts a shift is tried with in dtype d: around the
// width, past it, negative.
func shiftCounts(d tensor.DType) []float64 {
	w := float64(d.Bits())
	return []float64{0, 1, w - 1, w, w + 1, 2 * w, 63, 64, -1, -w}
}

// drawNew draws the args and attrs of an op of a class isNewClass reports.
func (s *scope) drawNew(d *draw, c *tensor.Case, op *scopeOp, dt tensor.DType) {
	switch op.Class {
	case tensor.ClassBroadcast:
		s.binaryArgs(d, c, op, dt) // the support table has no scalar placements for these
		if c.Args[0].IsScalar() || c.Args[1].IsScalar() {
			c.Args = []tensor.Arg{{Tensor: s.tensor(d, dt, op, 0, bias{})}, {Tensor: s.tensor(d, dt, op, 1, bias{})}}
		}
	case tensor.ClassWhere:
		x := s.tensor(d, dt, op, 1, bias{})
		conds := condDTypes
		if s.sup != nil && len(s.sup.conds[dt]) > 0 {
			conds = s.sup.conds[dt]
		}
		cond := s.g.elements(d, pick(d, conds), s.partnerShape(d, x.Shape), bias{})
		c.Args = []tensor.Arg{{Tensor: cond}, {Tensor: x}, s.valueArg(d, dt, x.Shape, c.Op, 2)}
		if d.oneIn(4) {
			c.Args[1] = s.valueArg(d, dt, x.Shape, c.Op, 1)
		}
	case tensor.ClassClamp:
		x := s.tensor(d, dt, op, 0, bias{})
		c.Args = []tensor.Arg{{Tensor: x}, s.boundArg(d, dt, x.Shape), s.boundArg(d, dt, x.Shape)}
	case tensor.ClassFull:
		c.Attrs.Shape = s.g.smallShape(d, 0)
		kind := pick(d, []tensor.ScalarKind{tensor.ScalarInt, tensor.ScalarFloat, tensor.ScalarBool})
		text := drawScalar(d, kind, c.Op, 0).Text
		c.Attrs.Value = &text
		if d.coin() {
			c.Attrs.DType = dt
		}
	}
}

// partnerShape is a shape that broadcasts with shape, kept within the
// generator's element budget.
func (s *scope) partnerShape(d *draw, shape []int) []int {
	p := broadcastPartner(d, shape)
	if tensor.NumElements(p) > s.g.opts.maxElems() {
		return slices.Clone(shape)
	}
	return p
}

// valueArg is where's x or y: a tensor of dt (sometimes another dtype), or
// a scalar.
func (s *scope) valueArg(d *draw, dt tensor.DType, shape []int, op string, pos int) tensor.Arg {
	if d.oneIn(4) {
		return tensor.Arg{Scalar: drawScalar(d, pick(d, []tensor.ScalarKind{tensor.ScalarInt, tensor.ScalarFloat, tensor.ScalarBool}), op, pos)}
	}
	bt := dt
	if d.oneIn(4) {
		bt = pick(d, s.g.dtypes)
	}
	if s.tier != nil && tensor.NumElements(shape) > s.g.opts.maxElems() {
		return tensor.Arg{Tensor: d.fill(bt, shape, bias{}, s.tier)}
	}
	return tensor.Arg{Tensor: s.g.elements(d, bt, s.partnerShape(d, shape), bias{})}
}

// boundArg is a clamp bound: null, a scalar (NaN and the limits among the
// palette's values) or a tensor of x's dtype and a broadcasting shape.
func (s *scope) boundArg(d *draw, dt tensor.DType, shape []int) tensor.Arg {
	switch d.intn(5) {
	case 0:
		return tensor.Arg{}
	case 1, 2:
		kind := tensor.ScalarFloat
		if dt.IsInt() || d.coin() {
			kind = tensor.ScalarInt
		}
		return tensor.Arg{Scalar: drawScalar(d, kind, "clamp", 1)}
	}
	if s.tier != nil && tensor.NumElements(shape) > s.g.opts.maxElems() {
		return tensor.Arg{Tensor: d.fill(dt, shape, bias{}, s.tier)}
	}
	return tensor.Arg{Tensor: s.g.elements(d, dt, s.partnerShape(d, shape), bias{})}
}

// probeNew fills the support table for an op drawn here and returns its
// main dtypes.
func (s *support) probeNew(op tensor.OpInfo, answers func(*tensor.Case) bool) []tensor.DType {
	var ds []tensor.DType
	for _, a := range tensor.AllDTypes {
		var ok bool
		switch op.Class {
		case tensor.ClassBroadcast:
			for _, b := range tensor.AllDTypes {
				if answers(probeCase(op.Name, tensor.Arg{Tensor: probeTensor(a)}, tensor.Arg{Tensor: probeTensor(b)})) {
					o := s.of(op.Name)
					o.partners[a] = append(o.partners[a], b)
					ok = true
				}
			}
		case tensor.ClassWhere:
			for _, cd := range condDTypes {
				v := tensor.Arg{Tensor: probeTensor(a)}
				if answers(probeCase(op.Name, tensor.Arg{Tensor: probeTensor(cd)}, v, v)) {
					s.conds[a] = append(s.conds[a], cd)
					ok = true
				}
			}
		case tensor.ClassClamp:
			x := tensor.Arg{Tensor: probeTensor(a)}
			ok = answers(probeCase(op.Name, x, tensor.Arg{Scalar: probeScalar(tensor.ScalarInt)}, tensor.Arg{Scalar: probeScalar(tensor.ScalarInt)})) ||
				answers(probeCase(op.Name, x, x, x))
		case tensor.ClassFull:
			for _, text := range []string{"1", "1.0", "true"} {
				c := &tensor.Case{Op: op.Name, Attrs: tensor.Attrs{Shape: []int{2}, Value: &text, DType: a}}
				ok = ok || answers(c)
			}
		}
		if ok {
			ds = append(ds, a)
		}
	}
	return ds
}

// nullBoundCandidates drop one of clamp's bounds (null: not given), the
// simplest bound there is.
func nullBoundCandidates(c *tensor.Case) []*tensor.Case {
	op, _ := tensor.LookupOp(c.Op)
	if op.Class != tensor.ClassClamp {
		return nil
	}
	var out []*tensor.Case
	for i := 1; i < len(c.Args); i++ {
		if !c.Args[i].IsNull() {
			d := cloneCase(c)
			d.Args[i] = tensor.Arg{}
			out = append(out, d)
		}
	}
	return out
}
