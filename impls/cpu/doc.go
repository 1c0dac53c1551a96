// Package cpu is tfuzz's optimized CPU engine: an independent implementation
// of the semantics the reference model (package model) states, behind the
// tensor.Backend interface, fast enough to ship.
//
// It never imports package model (model/deps_test.go enforces it): an engine
// that called the model could not disagree with it, and the differential
// check (props.Differential) would prove nothing. Where the code follows a
// policy of the model, a comment names the model's rule ("policy
// pytorch.coverage.no-kernel"); the code itself is written from the analysis
// notes and the frameworks' behaviour, not from the model's.
//
// # How a case flows
//
//  1. Engine.Eval finds the profile record (profile.go) and the op (ops.go),
//     and hands the case to the profile's family for the op's class: the
//     binary, unary and cast families of the Python frameworks live in
//     pybinary.go, pyunary.go and pycast.go; where, clamp and full (ops
//     added 2026-12) in pywhere.go, pyclamp.go and pyfull.go.
//  2. The family plans the op once, from dtypes, shapes and attrs only: the
//     result dtype, the dtype the arithmetic is computed in, how each operand
//     is converted to it, and every error, panic, crash or unsupported
//     outcome that does not depend on element values (promotion errors,
//     missing kernels, shape mismatches).
//  3. Inputs are decoded into typed Go slices in the compute representation
//     of their compute dtype (buffer.go): bool as uint8 0/1, integers as
//     their Go type, f16 and bf16 as float32 holding exact f16/bf16 values,
//     f32 and f64 natively. Converting an operand to the common dtype is part
//     of decoding, with the profile's conversion rules (convert.go, half.go).
//     Strides and offsets are kept: nothing is copied into row-major order.
//  4. One switch on the compute dtype selects the instantiation of a generic
//     kernel (kernels_*.go). Kernels work on equal-length contiguous slices;
//     they never see strides, dtypes or policies. A kernel that meets a
//     value-dependent condition (a zero integer divisor, MIN / -1) reports it
//     as a fault bit and writes some value; the family then decides, per
//     profile, whether the fault is an error, a crash or a defined value
//     (fixed up in a second, rare pass).
//  5. The driver (iter.go, drive.go: one, two or three inputs) walks the
//     broadcast iteration space: dimensions that are contiguous for every
//     operand are merged; when every operand is contiguous the kernel runs
//     over whole rows; a broadcast or strided operand is gathered (or
//     filled once, when it is a broadcast scalar) into a small per-worker
//     tile.
//  6. Above a threshold (1<<16 elements by default) the output index range is
//     split across goroutines (parallel.go). Elementwise results do not
//     depend on the split; fault bits are merged and, where the first
//     faulting element matters, located by a sequential rescan.
//  7. The result is encoded into a tensor.Tensor (raw words, row-major) and
//     returned as a tensor.Outcome.
//
// Two families skip the whole-tensor passes of steps 3 and 7 on large
// operands, whose cost is the memory they move: where of operands that need
// no conversion selects their storage words themselves (selectnt.go), and
// clamp by constant bounds decodes, clamps and encodes a tile at a time
// (mapWords in buffer.go).
//
// No kernel allocates, converts dtypes per element through an interface, or
// calls reflection, maps or fmt; tiles and outputs are allocated once per op.
// Kernels are plain Go, unrolled where it pays, with two exceptions that are
// measured to matter: large contiguous int64 and float32 adds, large
// selects of storage words and the large 32-bit results of mapWords write
// their output with non-temporal stores (addnt_amd64.s, selectnt_amd64.s,
// encodent_amd64.s; SSE2, so every amd64 CPU has them), and float pow takes an exact big-float path (pow.go) where Go's
// math.Pow cannot be trusted to round correctly. Integer sums (sum.go) use
// several accumulators, and u8 sums read 8-byte words (SWAR).
//
// # Extension points
//
// An op family (reductions, cumsum, index_select, creation ops) is a
// [family]: a supports function (honest capability, from dtypes, shapes and
// attrs alone) and an eval function. A new file attaches it to the profiles
// it serves from an init function:
//
//	func init() {
//		for _, p := range pythonProfiles() {
//			p.families[tensor.ClassReduce] = &family{supports: pyReduceSupports, eval: pyReduceEval}
//		}
//	}
//
// A profile (candle, burn, tenferro) is a *profile record appended to the
// profiles table (profile.go) with its policy fields set and its families
// attached; Supports and Profiles pick it up from the table. A profile with
// no family for a class declines every case of that class.
//
// Kernels have plain reference twins (reference_test.go) that tests run at
// every size where the fast path changes (unroll width, tile size, parallel
// threshold ± 1), with guard bands around the outputs to catch writes out of
// bounds.
package cpu
