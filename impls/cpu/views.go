package cpu

import "github.com/tfuzz/tfuzz/tensor"

// View inputs (case format, added 2026-12). Every family reads its inputs
// through their strides and offset (iter.go, rust.go), so a view reaches
// the same strided paths a framework's kernels take; what differs between
// frameworks is whether their public API can build the view at all and
// whether the framework keeps it. viewSpellings says that per framework;
// the model's rules are pytorch.view, numpy.view, jax.view.value-semantics,
// candle.view, candle.view.no-strided-slice, burn.view, rust.view.host-data
// and tenferro.view.unspecified.

// viewSpelling is what a framework's API does with the steps of a view.
type viewSpelling struct {
	stated     bool // the framework's view ops are known (false: decline every view)
	copies     bool // arrays are values: the op sees the contiguous elements
	noStep     bool // no strided slice: a step > 1 does not compile
	rank0Store bool // the storage may have rank 0
	vecOnly    bool // from_vec takes a host Vec, never a view
}

var viewSpellings = [...]viewSpelling{
	fwPyTorch:  {stated: true, rank0Store: true},
	fwNumPy:    {stated: true, rank0Store: true},
	fwJAX:      {stated: true, copies: true, rank0Store: true},
	fwCandle:   {stated: true, noStep: true, rank0Store: true, vecOnly: true},
	fwBurn:     {stated: true, vecOnly: true},
	fwTenferro: {},
}

// verdict is what spelling a case's views leaves to do.
type verdict uint8

const (
	runOp    verdict = iota // run the op on the (possibly copied) inputs
	answered                // the outcome is decided: the program does not compile
	decline                 // the engine does not state this case
)

// spellViews returns the case the op runs on, or the outcome when the
// framework cannot build the views, or decline.
func spellViews(p *profile, cl tensor.OpClass, c *tensor.Case) (*tensor.Case, tensor.Outcome, verdict) {
	var views []int
	for i, a := range c.Args {
		if a.Tensor != nil && a.Tensor.View != nil {
			views = append(views, i)
		}
	}
	if len(views) == 0 {
		return c, tensor.Outcome{}, runOp
	}
	sp := viewSpellings[p.fw]
	if !sp.stated {
		return nil, tensor.Outcome{}, decline
	}
	if sp.vecOnly && cl == tensor.ClassFromVec {
		return nil, tensor.UnsupportedOutcome("from_vec takes a Rust Vec; a view is a tensor"), answered
	}
	for _, i := range views {
		v := c.Args[i].Tensor.View
		if !sp.rank0Store && len(v.Base) == 0 {
			return nil, tensor.UnsupportedOutcome("no rank-0 tensor to take the view of"), answered
		}
		for k := range v.Slice {
			if sp.noStep && v.Slice[k][2] != 1 {
				return nil, tensor.UnsupportedOutcome("no slice with a step in this API (step %d)", v.Slice[k][2]), answered
			}
		}
	}
	if p.fw == fwCandle && cl == tensor.ClassCumsum && !rowMajorStorage(c.Args[0].Tensor) {
		return nil, tensor.Outcome{}, decline // cumsum's matmul layouts are not stated
	}
	if !sp.copies {
		return c, tensor.Outcome{}, runOp
	}
	d := *c
	d.Args = append([]tensor.Arg(nil), c.Args...)
	for _, i := range views {
		d.Args[i].Tensor = d.Args[i].Tensor.Clone()
	}
	return &d, tensor.Outcome{}, runOp
}

// rowMajorStorage is candle's Layout::is_contiguous: every dim longer than
// 1 has the row-major stride (the product of the later dims' sizes, 0
// after an empty dim), whatever the offset; dims of size 0 and 1 take any
// stride (candle-core/src/shape.rs:153-165).
func rowMajorStorage(t *tensor.Tensor) bool {
	if t.Strides == nil {
		return true
	}
	for k, n := range t.Shape {
		if n > 1 && t.Strides[k] != tensor.NumElements(t.Shape[k+1:]) {
			return false
		}
	}
	return true
}
