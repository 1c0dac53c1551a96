package metal

import "github.com/tfuzz/tfuzz/tensor"

// PathSizes states the sizes at which the simulated kernels change path,
// for the generators' size tiers (tensor.PathSizer); each Cost is measured
// as the CPU engine's are (impls/cpu/paths.go).
func (b *Backend) PathSizes() []tensor.PathSize {
	var elementwise, reductions []string
	for _, op := range tensor.Ops {
		switch op.Class {
		case tensor.ClassBinary, tensor.ClassUnary, tensor.ClassCast:
			elementwise = append(elementwise, op.Name)
		case tensor.ClassReduce:
			reductions = append(reductions, op.Name)
		}
	}
	return []tensor.PathSize{
		// host.go linearSplit: threadgroups of MaxThreads threads, each
		// handling 8 bytes of a contiguous operand (two f32 values)
		{Name: "threadgroups", Elements: 2 * MaxThreads, Ops: elementwise, Cost: 35},
		// host.go reduceOp: a group of n values runs on min(MaxThreads,
		// nextPowerOfTwo(n/2)) threads; below 2*simdWidth the SIMD-group
		// stage does all the folding, above 2*MaxThreads each thread folds
		// several values first
		{Name: "SIMD-group reduction", Elements: 2 * simdWidth, Dim: true, Ops: reductions, Cost: 3.4},
		{Name: "threadgroup reduction", Elements: 2 * MaxThreads, Dim: true, Ops: reductions, Cost: 50},
	}
}
