// Package metal is tfuzz's implementation of candle 0.11's Metal backend
// (profile candle/metal): Metal Shading Language kernels, the host code
// that launches them as candle does, and a simulated device that runs the
// same kernels in Go, so that the Metal profile is fuzzed on every machine.
//
// It never imports package model (model/deps_test.go enforces it): it is
// written from candle's source and the seeds, and the differential property
// (props/metal_test.go) compares it with the model.
//
// # Layers
//
//   - kernels/*.metal: the kernels, embedded (embed.go), with candle's names,
//     dtype coverage and order of operations: binary (badd_f32 and its
//     layout variants badd_f32_cs, ...), affine and powf, unary (float
//     functions in the element type, integer copies, const_set_u8, ...),
//     cast (cast_f32_u8, ...), reduce (fast_sum_u8, fast_argmax_bf16, ...),
//     indexing (is_u32_f16, ...) and ternary (where_u8_f32, ...). A dtype
//     without a kernel has no entry, and loading
//     it fails as candle's does. kernellist_test.go compares them with
//     candle's own list at the pinned commit (testdata/candle-kernels.txt).
//   - Device (device.go): buffers, kernels by name, dispatches of threadgroups.
//     SimDevice (sim_device.go) runs each kernel's Go twin (sim_*.go) over
//     the grid: thread functions for the elementwise kernels, threadgroups
//     in lockstep for the reductions, with the kernels' order of
//     operations; msl.go holds the scalar semantics (f32 fma for affine,
//     Metal's float -> int conversion, integer division without traps),
//     fastmath.go the fast-math functions, whose values it leaves open
//     except where they are fixed, and assumptions.go lists everything it
//     assumes about the hardware. GPU (gpu.go, mtl_darwin.go) compiles the
//     same sources with Metal on macOS.
//   - host.go: candle's MetalStorage, per op: the kernel name (the binary
//     layout variant, the unary table of the layout), the dtypes it refuses
//     before any kernel, the grid (linear_split, tiles, reduction
//     threadgroups), the size arithmetic that panics.
//   - hostnewops.go: the same for where_cond and const_set.
//   - front.go, frontnewops.go, rustscalar.go: candle's Tensor methods for
//     the catalog's ops: shape and dtype checks, empty-tensor shortcuts, f64
//     scalars as affine, other scalars converted with Rust `as` and
//     broadcast, composites (pow, mean, max_all, clamp), broadcast_as
//     layouts for the broadcast_* ops, full's typed fill value; tensors with
//     strides or an offset are uploaded as views of their storage.
//   - backend.go: Backend, the tensor.Backend "metal-sim" (or "metal" on a
//     GPU) claiming candle/metal.
//
// Every kernel in the .metal files has a twin, paired by name in
// twins_test.go, so that a kernel cannot be added on one side only. The
// README says what runs where, and what never ran (no Mac so far).
package metal
