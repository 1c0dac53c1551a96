package cpu

import "github.com/tfuzz/tfuzz/tensor"

// opID names an op of the catalog inside the engine, so that families switch
// on small integers rather than strings.
type opID uint8

const (
	opInvalid opID = iota
	// binary
	opAdd
	opSub
	opMul
	opDiv
	opFloorDiv
	opTruncDiv
	opRem
	opFmod
	opMaximum
	opMinimum
	opPow
	opEq
	opNe
	opLt
	opLe
	opGt
	opGe
	opBitAnd
	opBitOr
	opBitXor
	opShl // shift_left
	opShr // shift_right
	// unary
	opNeg
	opAbs
	opSign
	opSqrt
	opExp
	opFloor
	opCeil
	opRound
	opTrunc
	opSquare
	opBitNot
	// others
	opCast
	opSum
	opProd
	opMean
	opMax
	opMin
	opArgmax
	opArgmin
	opCumsum
	opIndexSelect
	opFromLiteral
	opArange
	opZeros
	opFromVec
	opToHost
)

// parseOp returns the engine's id of the catalog op called name. A string
// switch compiles to a length-and-value search: no map on the hot path.
func parseOp(name string) opID {
	switch name {
	case "add":
		return opAdd
	case "sub":
		return opSub
	case "mul":
		return opMul
	case "div":
		return opDiv
	case "floor_div":
		return opFloorDiv
	case "trunc_div":
		return opTruncDiv
	case "rem":
		return opRem
	case "fmod":
		return opFmod
	case "maximum":
		return opMaximum
	case "minimum":
		return opMinimum
	case "pow":
		return opPow
	case "eq":
		return opEq
	case "ne":
		return opNe
	case "lt":
		return opLt
	case "le":
		return opLe
	case "gt":
		return opGt
	case "ge":
		return opGe
	case "bitwise_and":
		return opBitAnd
	case "bitwise_or":
		return opBitOr
	case "bitwise_xor":
		return opBitXor
	case "shift_left":
		return opShl
	case "shift_right":
		return opShr
	case "neg":
		return opNeg
	case "abs":
		return opAbs
	case "sign":
		return opSign
	case "sqrt":
		return opSqrt
	case "exp":
		return opExp
	case "floor":
		return opFloor
	case "ceil":
		return opCeil
	case "round":
		return opRound
	case "trunc":
		return opTrunc
	case "square":
		return opSquare
	case "bitwise_not":
		return opBitNot
	case "cast":
		return opCast
	case "sum":
		return opSum
	case "prod":
		return opProd
	case "mean":
		return opMean
	case "max":
		return opMax
	case "min":
		return opMin
	case "argmax":
		return opArgmax
	case "argmin":
		return opArgmin
	case "cumsum":
		return opCumsum
	case "index_select":
		return opIndexSelect
	case "from_literal":
		return opFromLiteral
	case "arange":
		return opArange
	case "zeros":
		return opZeros
	case "from_vec":
		return opFromVec
	case "to_host":
		return opToHost
	}
	return opInvalid
}

// class returns the catalog class of op.
func (op opID) class() tensor.OpClass {
	switch {
	case op >= opAdd && op <= opShr:
		return tensor.ClassBinary
	case op >= opNeg && op <= opBitNot:
		return tensor.ClassUnary
	case op == opCast:
		return tensor.ClassCast
	case op >= opSum && op <= opArgmin:
		return tensor.ClassReduce
	case op == opCumsum:
		return tensor.ClassCumsum
	case op == opIndexSelect:
		return tensor.ClassIndexSelect
	case op == opFromLiteral:
		return tensor.ClassFromLiteral
	case op == opArange:
		return tensor.ClassArange
	case op == opZeros:
		return tensor.ClassZeros
	case op == opFromVec:
		return tensor.ClassFromVec
	}
	return tensor.ClassToHost
}

// isComparison reports whether op is eq, ne, lt, le, gt or ge.
func (op opID) isComparison() bool { return op >= opEq && op <= opGe }

// isBitwise reports whether op is bitwise_and, bitwise_or or bitwise_xor.
func (op opID) isBitwise() bool { return op >= opBitAnd && op <= opBitXor }

// isShift reports whether op is shift_left or shift_right.
func (op opID) isShift() bool { return op == opShl || op == opShr }

// opClass returns the class of the catalog op called name.
func opClass(name string) (tensor.OpClass, bool) {
	op := parseOp(name)
	if op == opInvalid {
		return newOpClass(name) // broadcastops.go
	}
	return op.class(), true
}

// wellFormed checks the argument structure of the case for its class, so
// that families can index arguments without checking: tensors with valid
// dtypes, data filling their views, scalars where the class allows them.
func wellFormed(cl tensor.OpClass, c *tensor.Case) bool {
	switch cl {
	case tensor.ClassBinary:
		if len(c.Args) != 2 || (c.Args[0].IsScalar() && c.Args[1].IsScalar()) {
			return false
		}
		// no framework has the bitwise ops and shifts of complex numbers:
		// the families answer a complex scalar of them with the error
		op := parseOp(c.Op)
		for _, a := range c.Args {
			complexOK := (op.isBitwise() || op.isShift()) && a.Tensor == nil && a.Scalar.Kind == tensor.ScalarComplex
			if !validArg(a, true) && !complexOK {
				return false
			}
		}
		return true
	case tensor.ClassUnary, tensor.ClassCast, tensor.ClassReduce, tensor.ClassCumsum:
		if len(c.Args) != 1 || !validArg(c.Args[0], false) {
			return false
		}
		return cl != tensor.ClassCast || c.Attrs.To.Valid()
	case tensor.ClassBroadcast:
		return len(c.Args) == 2 && validArg(c.Args[0], false) && validArg(c.Args[1], false)
	}
	return true // families of the other classes check their own arguments
}

// validArg reports whether a is a usable tensor (or, where allowed, scalar).
// The engine has no complex arithmetic with Python complex scalars: it
// declines them (the model states them).
func validArg(a tensor.Arg, scalarOK bool) bool {
	if a.Scalar != nil {
		return scalarOK && a.Tensor == nil && a.Scalar.Kind != tensor.ScalarComplex
	}
	return a.Tensor != nil && validTensor(a.Tensor)
}

// validTensor reports whether every element of t's view lies inside its data.
func validTensor(t *tensor.Tensor) bool {
	if !t.DType.Valid() || len(t.Shape) > tensor.MaxRank {
		return false
	}
	if t.Strides != nil && len(t.Strides) != len(t.Shape) {
		return false
	}
	n := 1
	lo, hi := t.Offset, t.Offset
	for i, s := range t.Shape {
		if s < 0 {
			return false
		}
		n *= s
		st := 1
		if t.Strides != nil {
			st = t.Strides[i]
		} else {
			st = 0 // contiguous: checked through n below
		}
		if s > 0 {
			if st >= 0 {
				hi += (s - 1) * st
			} else {
				lo += (s - 1) * st
			}
		}
	}
	if n > tensor.MaxElements {
		return false
	}
	words := 1
	if t.DType.IsComplex() {
		words = 2
	}
	if n == 0 {
		return true
	}
	if t.Strides == nil {
		hi = t.Offset + n - 1
	}
	return lo >= 0 && (hi+1)*words <= len(t.Data)
}

// opName returns the catalog name of op.
func opName(op opID) string {
	for _, info := range tensor.Ops {
		if parseOp(info.Name) == op {
			return info.Name
		}
	}
	return "?"
}
