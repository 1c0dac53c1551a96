// Package props holds tfuzz's generators and properties, built on rapid.
//
// The generators draw cases the way DESIGN.md describes them: a profile, an
// op, dtypes, a shape (0-dim, empty, broadcastable pairs, non-contiguous
// views) and element values biased to the edges (0, ±1, MIN, MAX, 2^24 ± 1,
// NaN, ±inf, -0, subnormals, f16/bf16 rounding ties), placed at index 0, at
// the last index and across the boundaries where a kernel changes path.
//
// The properties compare outcomes: the model against an implementation (the
// differential property), the model against itself (well-formed outcomes,
// determinism), and metamorphic identities where they hold.
package props
