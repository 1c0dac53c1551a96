package metal

import (
	"encoding/binary"
	"fmt"
	"math"
)

// Device is what the host code needs from a GPU: buffers, kernels by name,
// and dispatches of a grid of threadgroups. The simulated device
// (SimDevice) implements it on every machine; on macOS a Metal device
// (GPU, gpu.go over mtl_darwin.go) implements it with the compiled kernels/*.metal.
type Device interface {
	// Name says which device this is ("sim", or the Metal device's name).
	Name() string
	// NewBuffer allocates n bytes; what they hold before a kernel writes
	// them is unspecified (candle's buffers come from a pool, not zeroed).
	NewBuffer(n int) (Buffer, error)
	// Upload allocates a buffer holding data.
	Upload(data []byte) (Buffer, error)
	// Download returns the bytes of b, and for each byte whether it is
	// undefined (never written, or computed from an undefined read); undef
	// is nil when the device cannot tell (a real GPU).
	Download(b Buffer) (data []byte, undef []bool, err error)
	// HasKernel reports whether a kernel of that name exists. A missing one
	// is candle's "Error while loading function" at pipeline creation.
	HasKernel(name string) bool
	// MaxThreadsPerThreadgroup is the pipeline's limit for kernel name.
	MaxThreadsPerThreadgroup(name string) int
	// Dispatch runs kernel name on groups threadgroups of groupSize threads
	// each, with its arguments bound at indices 0, 1, ... in order, and
	// waits for it to finish.
	Dispatch(name string, args []Arg, groups, groupSize int) error
	// DispatchGrid is Dispatch over a grid in three dimensions, with the
	// threadgroup memory the grid asks for.
	DispatchGrid(name string, args []Arg, g Grid) error
	// Blit copies n bytes of src from byte srcOff to dst at byte dstOff, as
	// a blit command encoder's copyFromBuffer does, and waits for it.
	Blit(src Buffer, srcOff int, dst Buffer, dstOff, n int) error
	// Architecture is the name of the GPU's architecture
	// (MTLDevice.architecture.name, "applegpu_g13g"), whose last letter
	// candle reads as the device's size class (MetalDeviceType).
	Architecture() string
}

// Grid is a dispatch in three dimensions. Without PerThread it is
// dispatchThreadgroups: Size threadgroups (x, y, z) of Group threads each;
// with PerThread it is dispatchThreads: a grid of Size threads cut into
// threadgroups of Group threads, the last ones along each dimension
// partial. Shared[i] is the length in bytes of the threadgroup memory
// bound at [[threadgroup(i)]] (setThreadgroupMemoryLength).
type Grid struct {
	Size, Group [3]int
	PerThread   bool
	Shared      []int
}

// linearGrid is the grid of Dispatch: groups threadgroups of width threads.
func linearGrid(groups, width int) Grid {
	return Grid{Size: [3]int{groups, 1, 1}, Group: [3]int{width, 1, 1}}
}

// groups returns the number of threadgroups along each dimension.
func (g Grid) groups() [3]int {
	if !g.PerThread {
		return g.Size
	}
	var n [3]int
	for k := range n {
		n[k] = (g.Size[k] + g.Group[k] - 1) / max(g.Group[k], 1)
	}
	return n
}

// threadsPerGroup returns the threads of one full threadgroup.
func (g Grid) threadsPerGroup() int { return g.Group[0] * g.Group[1] * g.Group[2] }

// Buffer is device memory.
type Buffer interface {
	Len() int // bytes
}

// Arg is one kernel argument: constant bytes (Metal setBytes: a scalar or
// an array in constant address space) or a device buffer (setBuffer) bound
// Off bytes into the buffer (candle's BufferOffset of a view).
type Arg struct {
	Bytes []byte
	Buf   Buffer
	Off   int
}

// SizeT is a `constant size_t &` argument.
func SizeT(v int) Arg { return Arg{Bytes: binary.LittleEndian.AppendUint64(nil, uint64(v))} }

// Bool is a `constant bool &` argument (one byte).
func Bool(v bool) Arg {
	if v {
		return Arg{Bytes: []byte{1}}
	}
	return Arg{Bytes: []byte{0}}
}

// Long is a `constant int64_t &` argument.
func Long(v int64) Arg { return Arg{Bytes: binary.LittleEndian.AppendUint64(nil, uint64(v))} }

// Uint is a `constant uint &` argument.
func Uint(v int) Arg { return Arg{Bytes: binary.LittleEndian.AppendUint32(nil, uint32(v))} }

// Float is a `constant float &` argument.
func Float(v float32) Arg {
	return Arg{Bytes: binary.LittleEndian.AppendUint32(nil, math.Float32bits(v))}
}

// SizeTs is a `constant size_t *` array argument (at least one element is
// bound, so that an empty shape still has an address).
func SizeTs(vs []int) Arg {
	b := []byte{}
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint64(b, uint64(v))
	}
	if len(vs) == 0 {
		b = make([]byte, 8)
	}
	return Arg{Bytes: b}
}

// Uints is a `constant uint *` array argument (at least one element).
func Uints(vs []int) Arg {
	b := []byte{}
	for _, v := range vs {
		b = binary.LittleEndian.AppendUint32(b, uint32(v))
	}
	if len(vs) == 0 {
		b = make([]byte, 4)
	}
	return Arg{Bytes: b}
}

// BufArg is a `device T *` argument.
func BufArg(b Buffer) Arg { return Arg{Buf: b} }

// BufAt is a `device T *` argument bound off bytes into b.
func BufAt(b Buffer, off int) Arg { return Arg{Buf: b, Off: off} }

// sizeT decodes a `constant size_t &` argument.
func (a Arg) sizeT() uint64 { return binary.LittleEndian.Uint64(a.Bytes) }

// uint decodes a `constant uint &` argument.
func (a Arg) uint() uint32 { return binary.LittleEndian.Uint32(a.Bytes) }

// float decodes a `constant float &` argument.
func (a Arg) float() float64 {
	return float64(math.Float32frombits(binary.LittleEndian.Uint32(a.Bytes)))
}

// bool decodes a `constant bool &` argument.
func (a Arg) bool() bool { return a.Bytes[0] != 0 }

// sizeTIn decodes element i of a `constant size_t *` argument, and false
// when i is past the bound array: a kernel reading there reads whatever
// the constant memory holds.
func (a Arg) sizeTIn(i uint64) (uint64, bool) {
	if i >= uint64(len(a.Bytes)/8) {
		return 0, false
	}
	return binary.LittleEndian.Uint64(a.Bytes[8*i:]), true
}

// uintIn decodes element i of a `constant uint *` argument, and false when
// i is past the bound array.
func (a Arg) uintIn(i uint64) (uint64, bool) {
	if i >= uint64(len(a.Bytes)/4) {
		return 0, false
	}
	return uint64(binary.LittleEndian.Uint32(a.Bytes[4*i:])), true
}

// KernelError is a kernel that does not exist: candle's MetalKernelError
// LoadFunctionError, which its backend returns as an Err.
type KernelError struct{ Name string }

func (e *KernelError) Error() string { return "error while loading function: " + e.Name }

// errDispatch wraps a device failure with the kernel it concerns.
func errDispatch(name string, err error) error { return fmt.Errorf("dispatch %s: %w", name, err) }
