package tensor

// What a program may cost: every step's result is held until the program
// ends, so the result elements add up. A step reading an earlier step's
// result is costed with a placeholder of that result's shape, bounded from
// the step's op class and shapes alone. Where the class does not fix the
// shape (from_literal, an index_select without a dim), the placeholder is
// a 1-D tensor of the result's span: a bound on the product of its dims,
// empty dims counted as 1, which is what a later step can make of it
// (sum(x, dim=2) of an empty [65536, 65536, 0] has 2^32 elements).

// inputElements is what holding an input costs: its elements, and for a
// view its storage as well (an evaluator may copy the view contiguous).
func inputElements(t *Tensor) int64 {
	n := int64(t.Len())
	if t.View != nil {
		n += satProduct(t.View.Base)
	}
	return n
}

func programCost(c *Case) Cost {
	var cost Cost
	for _, a := range c.Args {
		if a.Tensor != nil {
			cost.InputElements += inputElements(a.Tensor)
		}
	}
	results := make([]*Tensor, len(c.Steps))
	exact := make([]bool, len(c.Steps))
	for j, s := range c.Steps {
		sc := c.StepCase(j, results)
		allExact := true
		for _, a := range s.Args {
			switch {
			case a.From == FromStep:
				allExact = allExact && exact[a.Index]
			case a.From == FromLiteral && a.Arg.Tensor != nil:
				cost.InputElements += inputElements(a.Arg.Tensor)
			}
		}
		step := CaseCost(sc)
		op, _ := LookupOp(s.Op)
		// No op of the catalog makes a result whose span exceeds the
		// product of its operands' spans (a broadcast, where and clamp take
		// each dim from one operand, index_select a row per index, a
		// reduction drops dims), nor that of its shape attr.
		prod := int64(1)
		for _, a := range sc.Args {
			if a.Tensor != nil {
				prod = satMul(prod, spanOf(a.Tensor.Shape))
			}
		}
		if s.Attrs.Shape != nil {
			prod = max(prod, spanOf(s.Attrs.Shape))
		}
		if !allExact { // an operand of unknown shape
			step.ResultElements = max(step.ResultElements, prod)
			if op.Class == ClassMatmul {
				step.Work = max(step.Work, prod) // batch*m*n*k <= len(a)*len(b)
			}
		}
		cost.ResultElements = satAdd(cost.ResultElements, step.ResultElements)
		cost.Work = satAdd(cost.Work, step.Work)
		shape, ok := resultShape(sc, op.Class)
		if !ok || !allExact {
			span := max(step.ResultElements, prod, 1)
			shape, ok = []int{int(min(span, MaxElements+1))}, false
		}
		results[j] = &Tensor{DType: I64, Shape: shape}
		exact[j] = ok
	}
	return cost
}

// resultShape is the shape of the result of single-op case c where the op
// class fixes it from the operands' shapes and attrs; ok is false where
// it does not (from_literal, classes this bound does not know).
func resultShape(c *Case, class OpClass) (shape []int, ok bool) {
	var ts []*Tensor
	for _, a := range c.Args {
		if a.Tensor != nil {
			ts = append(ts, a.Tensor)
		}
	}
	switch class {
	case ClassBinary, ClassBroadcast, ClassWhere, ClassClamp:
		rank := 0
		for _, t := range ts {
			rank = max(rank, t.Rank())
		}
		shape = make([]int, rank)
		for k := 1; k <= rank; k++ {
			for _, t := range ts {
				if r := t.Rank(); r >= k {
					shape[rank-k] = max(shape[rank-k], t.Shape[r-k])
				}
			}
		}
		return shape, true
	case ClassUnary, ClassCast, ClassCumsum, ClassToHost, ClassSort:
		if len(ts) == 1 {
			return ts[0].Shape, true
		}
	case ClassReduce:
		if len(ts) != 1 {
			return nil, false
		}
		a := ts[0]
		if c.Attrs.Dim == nil {
			return []int{}, true
		}
		d := *c.Attrs.Dim
		if d < 0 {
			d += a.Rank()
		}
		if d < 0 || d >= a.Rank() {
			return nil, false
		}
		shape = append([]int{}, a.Shape...)
		if c.Attrs.KeepDim() {
			shape[d] = 1
			return shape, true
		}
		return append(shape[:d], shape[d+1:]...), true
	case ClassIndexSelect:
		if len(ts) != 2 || c.Attrs.Dim == nil || ts[0].Rank() == 0 {
			return nil, false
		}
		d := *c.Attrs.Dim
		if d < 0 {
			d += ts[0].Rank()
		}
		if d < 0 || d >= ts[0].Rank() {
			return nil, false
		}
		shape = append([]int{}, ts[0].Shape...)
		shape[d] = ts[1].Len()
		return shape, true
	case ClassZeros, ClassFromVec, ClassFull:
		return c.Attrs.Shape, c.Attrs.Shape != nil
	case ClassArange:
		n := arangeElements(c.Attrs.Start, c.Attrs.End)
		return []int{int(min(n, MaxElements+1))}, true
	}
	return nil, false
}

// spanOf is the product of shape's dims with empty dims counted as 1: a
// bound on the elements of any tensor made of some of those dims.
func spanOf(shape []int) int64 {
	n := int64(1)
	for _, s := range shape {
		n = satMul(n, int64(max(s, 1)))
	}
	return n
}

// satAdd adds non-negative counts, saturating instead of overflowing.
func satAdd(a, b int64) int64 {
	const most = 1<<62 - 1
	if a > most-b {
		return most
	}
	return a + b
}
