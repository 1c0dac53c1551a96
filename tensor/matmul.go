package tensor

import "fmt"

// matmul and cat (case format, "Ops and attrs added 2026-12"): matmul takes
// two tensors, cat one or more (its args are the tensors themselves, in
// order) and a dim. Their tables join the codec's and the docs' here, with
// the bounds CaseCost puts on them.

func init() {
	argNames[ClassMatmul] = []ArgSpec{{"a", "tensor"}, {"b", "tensor"}}
	argNames[ClassCat] = []ArgSpec{{"tensors", "one or more tensors"}}
	attrKinds[ClassMatmul] = []string{"tolerance_ulps"}
	attrKinds[ClassCat] = []string{"dim"}
	attrDocs[ClassCat] = map[string]AttrSpec{
		"dim": {Type: "int", Doc: "the dimension to concatenate along; negative counts from the end", Required: true},
	}
}

// variadic reports the classes whose args are a list of any length >= 1.
func variadic(class OpClass) bool { return class == ClassCat }

// arityError is the error of an args list of the wrong length for op.
func arityError(op OpInfo, n, got int) error {
	if variadic(op.Class) {
		return errAt("args", "%s takes one or more tensors, got none", op.Name)
	}
	return errAt("args", "%s takes %d args, got %d", op.Name, n, got)
}

// arityOK reports whether got args suit a class that takes n (n < 0: one or more).
func arityOK(n, got int) bool {
	if n < 0 {
		return got >= 1
	}
	return got == n
}

// MatmulDims are the sizes a matmul of shapes a and b multiplies, as NumPy
// reads them: a 1-D a is a row [1, k], a 1-D b a column [k, 1]; Batch holds
// the dims before the last two of each (nil when its rank is below 3).
type MatmulDims struct {
	BatchA, BatchB []int
	M, K, K2, N    int
}

// MatmulDimsOf reads the matmul sizes of shapes a and b (rank >= 1 each).
func MatmulDimsOf(a, b []int) (MatmulDims, error) {
	var d MatmulDims
	if len(a) == 0 || len(b) == 0 {
		return d, fmt.Errorf("matmul of a rank-0 shape")
	}
	d.M, d.K = 1, a[len(a)-1]
	if len(a) >= 2 {
		d.M = a[len(a)-2]
		d.BatchA = a[:len(a)-2]
	}
	d.K2, d.N = b[0], 1
	if len(b) >= 2 {
		d.K2, d.N = b[len(b)-2], b[len(b)-1]
		d.BatchB = b[:len(b)-2]
	}
	return d, nil
}

// matmulCost bounds a matmul's result by its broadcast batch times m*n, and
// its work by that times k.
func matmulCost(ts []*Tensor) (result, work int64) {
	if len(ts) != 2 {
		return 0, 0
	}
	d, err := MatmulDimsOf(ts[0].Shape, ts[1].Shape)
	if err != nil {
		return 1, 1
	}
	batch := broadcastElements([]*Tensor{{Shape: d.BatchA}, {Shape: d.BatchB}})
	result = satMul(batch, satMul(int64(d.M), int64(d.N)))
	return result, satMul(result, int64(max(d.K, d.K2, 1)))
}

// catElements bounds a cat's result by the sum of its inputs' elements.
func catElements(ts []*Tensor) int64 {
	var n int64
	for _, t := range ts {
		n = satAdd(n, int64(t.Len()))
	}
	return n
}
