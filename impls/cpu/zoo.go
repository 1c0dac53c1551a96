//go:build zoo

package cpu

import (
	"fmt"
	"os"
	"strings"
	"sync/atomic"
)

// The bug zoo: built with -tags zoo, the engine carries realistic bugs at
// the places such bugs live (a kernel's tail loop, the bf16 rounding, a
// float -> int conversion, the merge of per-goroutine partial sums, ...),
// each behind a hook
//
//	if zooBuild && zoo("name") { ... }
//
// and at most one is active: the one the environment variable TFUZZ_ZOO
// names (read once, at start-up), or the one SetZooBug sets. They exist to
// measure the fuzzer: does a campaign find each one, how fast, and how small
// is the case it shrinks it to (campaign/zoo_test.go, scripts/zoo.sh).
// Ordinary builds have no zoo (zoo_off.go) and pay nothing for the hooks.

// ZooEnv is the environment variable naming the active zoo bug.
const ZooEnv = "TFUZZ_ZOO"

const zooBuild = true

// ZooBug describes one bug of the zoo.
type ZooBug struct {
	Name   string // the value of TFUZZ_ZOO that plants it
	Where  string // the file and function it is planted in
	Plants string // what goes wrong
	// Elementwise bugs change elements independently of the others: a case
	// with one element per tensor operand shows them, and shrinking must
	// reach it.
	Elementwise bool
	// Ops are the ops a user hunting the bug would restrict a campaign to.
	Ops []string
	// Split bugs live where an op is split across goroutines: they show only
	// on tensors the engine splits (from DefaultParallelThreshold elements,
	// with 2+ workers), which campaigns draw in their "split" size tiers.
	Split bool
}

var zooBugs = []ZooBug{
	{Name: "tail-off-by-one", Where: "kernels_arith.go kAdd",
		Plants:      "the scalar tail loop after the 4-way unrolled body stops one element short (the last element keeps 0)",
		Elementwise: true, Ops: []string{"add"}},
	{Name: "bf16-tie", Where: "half.go f32ToBF16",
		Plants:      "f32 -> bf16 rounds ties away from zero (u + 0x8000) instead of to even",
		Elementwise: true, Ops: []string{"cast", "add", "mul"}},
	{Name: "missing-saturation", Where: "convert.go satSigned",
		Plants:      "the saturating float -> signed int conversion (JAX, Arm64 fcvtzs) does not clamp at the top of the range",
		Elementwise: true, Ops: []string{"cast"}},
	{Name: "zero-dim-promotion", Where: "promote.go torchResultType",
		Plants:      "PyTorch promotion puts a 0-dim tensor in the dimensioned tensors' category (i8[n] + i64[] gives i64)",
		Elementwise: true, Ops: []string{"add", "mul", "sub"}},
	{Name: "fmod-sign", Where: "kernels_intdiv.go kFmod",
		Plants:      "integer fmod gives the remainder the divisor's sign (Python's %) instead of the dividend's (C's %)",
		Elementwise: true, Ops: []string{"fmod"}},
	{Name: "sum-chunk-carry", Where: "pyreduce_run.go sumWords",
		Plants: "the partial sums of the goroutine pieces of an integer sum are kept in the element type: each piece's carry is lost",
		Ops:    []string{"sum"}, Split: true},
	{Name: "cumsum-chunk-carry", Where: "pycumsum.go scanIntSplit",
		Plants: "the last goroutine piece of a split integer cumsum is scanned from 0: the carry of the pieces before it is lost",
		Ops:    []string{"cumsum"}, Split: true},
	{Name: "neg-zero", Where: "kernels_unary.go kNeg",
		Plants:      "neg computes 0 - x, so -(+0) is +0 instead of -0",
		Elementwise: true, Ops: []string{"neg"}},
	{Name: "max-drops-nan", Where: "pyreduce_run.go firstExtreme",
		Plants: "the max reduction skips a NaN that is not the first element",
		Ops:    []string{"max"}},
	{Name: "sum-acc-dtype", Where: "sum.go sumI32",
		Plants: "the i32 sum accumulates in int32 and widens the wrapped total to i64",
		Ops:    []string{"sum"}},
	{Name: "zero-div-wrong-operand", Where: "kernels_intdiv.go kFloorDiv",
		Plants:      "signed integer floor_div tests the dividend for zero instead of the divisor",
		Elementwise: true, Ops: []string{"floor_div"}},
	{Name: "u8-cast-saturate", Where: "pycast.go castTo",
		Plants:      "integer -> u8 casts clamp to [0, 255] (OpenCV's saturate_cast) instead of wrapping",
		Elementwise: true, Ops: []string{"cast"}},
	{Name: "broadcast-stride", Where: "iter.go newLayout",
		Plants: "a size-1 dimension broadcast against a larger one keeps its stride instead of 0",
		Ops:    []string{"add", "mul", "sub"}},
	{Name: "argmax-keepdim", Where: "pyreduce.go pyReduceEval",
		Plants: "argmax and argmin ignore keepdim",
		Ops:    []string{"argmax", "argmin"}},
	{Name: "argmax-last-tie", Where: "pyreduce_run.go firstExtreme",
		Plants: "argmax breaks ties toward the last index (>=) instead of the first",
		Ops:    []string{"argmax"}},
	{Name: "rem-zero-sign", Where: "kernels_float.go kRemFloatNumPy",
		Plants:      "NumPy's float remainder gives a zero result fmod's sign (the dividend's) instead of the divisor's",
		Elementwise: true, Ops: []string{"rem"}},
	{Name: "mean-count", Where: "pyreduce_run.go reduceMean",
		Plants: "mean along a dim divides each group's sum by the element count of the whole tensor",
		Ops:    []string{"mean"}},
	{Name: "eq-nan", Where: "kernels_arith.go kEq",
		Plants:      "eq is computed as !(a < b || a > b), so NaN == NaN is true",
		Elementwise: true, Ops: []string{"eq"}},
	{Name: "f16-subnormal-flush", Where: "convert.go narrowF16",
		Plants:      "f32 -> f16 narrowing flushes results below f16's smallest normal to zero (FTZ)",
		Elementwise: true, Ops: []string{"cast", "add", "mul"}},
}

// ZooBugs returns the bugs of the zoo.
func ZooBugs() []ZooBug { return append([]ZooBug(nil), zooBugs...) }

// zooActive is the active bug's name ("" for none).
var zooActive atomic.Pointer[string]

func init() {
	name := os.Getenv(ZooEnv)
	if name != "" && !isZooBug(name) {
		panic(fmt.Sprintf("cpu: %s=%q names no zoo bug (have %s)", ZooEnv, name, zooNames()))
	}
	zooActive.Store(&name)
}

func isZooBug(name string) bool {
	for _, b := range zooBugs {
		if b.Name == name {
			return true
		}
	}
	return false
}

func zooNames() string {
	names := make([]string, len(zooBugs))
	for i, b := range zooBugs {
		names[i] = b.Name
	}
	return strings.Join(names, ", ")
}

// SetZooBug makes the bug called name the active one ("": none) and returns
// a function restoring the previous one. Call it only while no engine is
// evaluating (the zoo is global). It panics on a name the zoo does not have.
func SetZooBug(name string) (restore func()) {
	if name != "" && !isZooBug(name) {
		panic("cpu: SetZooBug: no such zoo bug")
	}
	prev := zooActive.Swap(&name)
	return func() { zooActive.Store(prev) }
}

// ActiveZooBug returns the name of the active bug ("" for none).
func ActiveZooBug() string { return *zooActive.Load() }

// zoo reports whether the bug called name is active.
func zoo(name string) bool { return *zooActive.Load() == name }
