package cpu

import "github.com/tfuzz/tfuzz/tensor"

// PathSizes states the sizes at which the engine's code changes path, for
// the generators' size tiers (tensor.PathSizer): a campaign draws a share of
// its cases at and around each, so that the product command, not only this
// package's tests, reaches the split, the summation orders and the tiles.
// Each Cost is measured (2026-12, two 40 s default campaigns: a tier's
// seconds per case over a small case's, from summary.json); they change
// with the model's speed more than with the engine's.
func (e *Engine) PathSizes() []tensor.PathSize {
	elementwise := opsOfClass(tensor.ClassBinary, tensor.ClassUnary, tensor.ClassCast, tensor.ClassBroadcast, tensor.ClassWhere, tensor.ClassClamp)
	reductions := opsOfClass(tensor.ClassReduce)
	sums := []string{"sum", "mean"}
	floats := []tensor.DType{tensor.F16, tensor.BF16, tensor.F32, tensor.F64}
	ints := []tensor.DType{tensor.Bool, tensor.U8, tensor.I8, tensor.I16, tensor.U16, tensor.I32, tensor.U32, tensor.I64, tensor.U64}
	python := profileNames(pythonProfiles())
	torch := profileNames(frameworkProfiles(fwPyTorch))
	numpy := profileNames(frameworkProfiles(fwNumPy))
	sizes := []tensor.PathSize{
		// iter.go: strided and broadcast operands are gathered a tile at a time
		{Name: "strided tiles", Elements: tileLen, Ops: elementwise, Cost: 7},
		// sumorder.go pairwiseSum: in order below 8, eight accumulators up
		// to 128, halves above (NumPy's pairwise_sum of a float axis)
		{Name: "pairwise blocks", Elements: 128, Dim: true, Ops: sums, Profiles: numpy, DTypes: floats, Cost: 2.5},
		// sumorder.go torchOuterSum and torchInnerSum: a row of at least one
		// Vectorized (8 f32, 16 f16 or bf16 values) sums lane by lane
		{Name: "sum vectors", Elements: 2 * torchVecBytes / 4, Dim: true, Ops: sums, Profiles: torch, DTypes: floats, Cost: 2},
		// sumorder.go torchMultiRow: the cascade folds level 0 every 16 rows
		// of 4 vectors (512 f32 values), level 1 every 256 rows
		{Name: "cascade level 1", Elements: 16 * 4 * torchVecBytes / 4, Dim: true, Ops: sums, Profiles: torch, DTypes: floats, Cost: 15},
		{Name: "cascade level 2", Elements: 256 * 4 * torchVecBytes / 4, Dim: true, Ops: sums, Profiles: torch, DTypes: floats, Cost: 150},
		// pyreduce_run.go sumWords decodes integer sums a tile at a time;
		// sum.go's u8 SWAR folds its lanes every 32 blocks of 64 bytes
		{Name: "integer sum tiles", Elements: sumTile, Ops: sums, Profiles: python, DTypes: ints, Cost: 7.5},
		// pyreduce.go planTorchRed: from GRAIN_SIZE elements PyTorch may split
		// a reduction across threads, which opens its order
		{Name: "reduction grain", Elements: torchGrain, Ops: reductions, Profiles: torch, Cost: 60},
		// addnt.go: streaming stores of large contiguous int64 and float32 adds
		// (weight 2: its cases cost 2^20 elements each, the most of any tier)
		{Name: "streaming stores", Elements: streamMin, Ops: []string{"add"}, Profiles: python, DTypes: []tensor.DType{tensor.I64, tensor.F32}, Weight: 2, Cost: 11000},
		// sortkernel.go: rows are sorted by insertion, from pairMin by a pair
		// quicksort, from radixMin by an LSD radix sort
		{Name: "pair-sorted rows", Elements: pairMin, Dim: true, Ops: []string{"sort", "argsort"}, Cost: 3.3},
		{Name: "radix rows", Elements: radixMin, Dim: true, Ops: []string{"sort", "argsort"}, Cost: 16},
		// matmul.go: the packed path's kc and nc blocks (a k or n past mmKC,
		// mmNC starts another block)
		{Name: "matmul blocks", Elements: mmKC, Dim: true, Ops: []string{"matmul"}, Cost: 30},
	}
	if e.workers > 1 {
		// parallel.go: from the threshold, ops run in pieces aligned to 64 on
		// several goroutines: what goes wrong there (a lost carry, a piece
		// bound off by one) no small case can show, so these weigh most
		for _, group := range []struct {
			name string
			ops  []string
			cost float64
		}{{"split: elementwise", elementwise, 670}, {"split: reductions", reductions, 380}, {"split: cumsum", []string{"cumsum"}, 385},
			{"split: sort rows", []string{"sort", "argsort"}, 1400}} {
			sizes = append(sizes, tensor.PathSize{Name: group.name, Elements: e.threshold, Align: 64, Ops: group.ops, Weight: 4, Cost: group.cost})
		}
		// matmul.go mmRun splits a product's rows from the threshold's
		// multiply-adds; cat.go catCopy splits its output words
		sizes = append(sizes, tensor.PathSize{Name: "split: matmul", Elements: e.threshold, Ops: []string{"matmul"}, Weight: 2, Cost: 1170},
			tensor.PathSize{Name: "split: cat", Elements: e.threshold, Align: 64, Ops: []string{"cat"}, Weight: 2, Cost: 640})
	}
	return sizes
}

func opsOfClass(classes ...tensor.OpClass) []string {
	var ops []string
	for _, op := range tensor.Ops {
		for _, c := range classes {
			if op.Class == c {
				ops = append(ops, op.Name)
			}
		}
	}
	return ops
}

func profileNames(ps []*profile) []string {
	var names []string
	for _, p := range ps {
		names = append(names, p.name)
	}
	return names
}

// frameworkProfiles returns the profiles of one framework.
func frameworkProfiles(fw framework) []*profile {
	var ps []*profile
	for _, p := range profiles {
		if p.fw == fw {
			ps = append(ps, p)
		}
	}
	return ps
}
