package metal

import (
	"errors"
	"fmt"
	"runtime"
	"sort"
	"sync"
	"unsafe"
)

// GPU is a real Metal device: the kernels of kernels/*.metal compiled by
// Metal's compiler, with candle's compile options (fast math), buffers in
// shared storage, one command buffer per dispatch. It needs macOS and cgo
// (mtl_darwin.go); NewGPU fails elsewhere.
type GPU struct {
	api   metalAPI
	libs  []libHandle // one per .metal source, in the order of sources
	mu    sync.Mutex
	pipes map[string]*pipeline // by kernel name; nil: looked up, absent
}

// metalAPI is the handful of Metal calls the GPU makes, implemented with
// cgo on macOS (mtl_darwin.go).
type metalAPI interface {
	name() string
	// compile builds a library from MSL source with fast math on.
	compile(source string) (libHandle, error)
	// pipeline finds function name in lib and makes its compute pipeline;
	// ok is false when the library has no such function.
	pipeline(lib libHandle, name string) (p pipeHandle, maxThreads int, ok bool, err error)
	newBuffer(data []byte, n int) (bufHandle, error) // n bytes, data copied in when not nil
	read(b bufHandle, n int) []byte
	release(h any)
	// dispatch encodes the pipeline, binds args at indices 0, 1, ...,
	// sets the grid's threadgroup memory, dispatches the grid, commits and
	// waits.
	dispatch(p pipeHandle, args []Arg, g Grid) error
	// blit copies n bytes between buffers with a blit encoder and waits.
	blit(src bufHandle, srcOff int, dst bufHandle, dstOff, n int) error
	// architecture is MTLDevice.architecture.name ("" before macOS 14).
	architecture() string
}

type (
	libHandle  struct{ p unsafe.Pointer }
	pipeHandle struct{ p unsafe.Pointer }
	bufHandle  struct{ p unsafe.Pointer }
)

type pipeline struct {
	h          pipeHandle
	maxThreads int
}

// gpuBuffer is a Metal buffer.
type gpuBuffer struct {
	h bufHandle
	n int
}

func (b *gpuBuffer) Len() int { return b.n }

// errNoMetal is what NewGPU returns where there is no Metal.
var errNoMetal = errors.New("metal: a real device needs macOS and cgo (see impls/metal/README.md)")

// NewGPU opens the system's default Metal device and compiles the kernels.
func NewGPU() (*GPU, error) {
	api, err := openMetal()
	if err != nil {
		return nil, err
	}
	return newGPU(api)
}

func newGPU(api metalAPI) (*GPU, error) {
	g := &GPU{api: api, pipes: map[string]*pipeline{}}
	srcs := Sources()
	names := make([]string, 0, len(srcs))
	for n := range srcs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		lib, err := api.compile(srcs[n])
		if err != nil {
			return nil, fmt.Errorf("metal: compile kernels/%s.metal: %w", n, err)
		}
		g.libs = append(g.libs, lib)
	}
	return g, nil
}

var _ Device = (*GPU)(nil)

// NewGPUBackend returns the backend on the system's Metal device, named "metal".
func NewGPUBackend() (*Backend, error) {
	g, err := NewGPU()
	if err != nil {
		return nil, err
	}
	return New("metal", g), nil
}

// Name returns the Metal device's name.
func (g *GPU) Name() string { return g.api.name() }

// NewBuffer allocates n bytes of shared storage.
func (g *GPU) NewBuffer(n int) (Buffer, error) {
	h, err := g.api.newBuffer(nil, n)
	if err != nil {
		return nil, err
	}
	return g.track(&gpuBuffer{h, n}), nil
}

// track releases the Metal buffer when the Go value is collected.
func (g *GPU) track(b *gpuBuffer) *gpuBuffer {
	runtime.SetFinalizer(b, func(b *gpuBuffer) { g.Release(b) })
	return b
}

// Upload allocates a buffer holding data.
func (g *GPU) Upload(data []byte) (Buffer, error) {
	h, err := g.api.newBuffer(data, len(data))
	if err != nil {
		return nil, err
	}
	return g.track(&gpuBuffer{h, len(data)}), nil
}

// Download copies b's bytes; a GPU cannot tell which are undefined.
func (g *GPU) Download(b Buffer) ([]byte, []bool, error) {
	gb, ok := b.(*gpuBuffer)
	if !ok {
		return nil, nil, fmt.Errorf("metal: download of a foreign buffer %T", b)
	}
	data := g.api.read(gb.h, gb.n)
	runtime.KeepAlive(gb) // its finalizer would release the Metal buffer under the read
	return data, nil, nil
}

// Release frees buffers the caller no longer needs.
func (g *GPU) Release(bs ...Buffer) {
	for _, b := range bs {
		if gb, ok := b.(*gpuBuffer); ok && gb.h.p != nil {
			g.api.release(gb.h)
			gb.h = bufHandle{}
		}
	}
}

// lookup finds (and caches) the pipeline of kernel name in any library.
func (g *GPU) lookup(name string) (*pipeline, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if p, seen := g.pipes[name]; seen {
		return p, nil
	}
	for _, lib := range g.libs {
		h, maxThreads, ok, err := g.api.pipeline(lib, name)
		if err != nil {
			return nil, fmt.Errorf("metal: pipeline %s: %w", name, err)
		}
		if ok {
			p := &pipeline{h, maxThreads}
			g.pipes[name] = p
			return p, nil
		}
	}
	g.pipes[name] = nil
	return nil, nil
}

// HasKernel reports whether a compiled library defines kernel name.
func (g *GPU) HasKernel(name string) bool {
	p, err := g.lookup(name)
	return err == nil && p != nil
}

// MaxThreadsPerThreadgroup is the pipeline's maxTotalThreadsPerThreadgroup.
func (g *GPU) MaxThreadsPerThreadgroup(name string) int {
	if p, err := g.lookup(name); err == nil && p != nil {
		return p.maxThreads
	}
	return MaxThreads
}

// Dispatch runs kernel name and waits for it.
func (g *GPU) Dispatch(name string, args []Arg, groups, groupSize int) error {
	return g.DispatchGrid(name, args, linearGrid(groups, groupSize))
}

// DispatchGrid runs kernel name on grid gr and waits for it.
func (g *GPU) DispatchGrid(name string, args []Arg, gr Grid) error {
	p, err := g.lookup(name)
	if err != nil {
		return err
	}
	if p == nil {
		return &KernelError{Name: name}
	}
	for i, a := range args {
		if a.Buf != nil {
			if _, ok := a.Buf.(*gpuBuffer); !ok {
				return errDispatch(name, fmt.Errorf("argument %d: foreign buffer %T", i, a.Buf))
			}
		}
	}
	if gr.Size[0]*gr.Size[1]*gr.Size[2] == 0 {
		return nil
	}
	err = g.api.dispatch(p.h, args, gr)
	runtime.KeepAlive(args) // the buffers' finalizers must not run before the kernel is done
	return err
}

// Blit copies n bytes from src to dst on the GPU.
func (g *GPU) Blit(src Buffer, srcOff int, dst Buffer, dstOff, n int) error {
	s, ok1 := src.(*gpuBuffer)
	d, ok2 := dst.(*gpuBuffer)
	switch {
	case !ok1 || !ok2:
		return fmt.Errorf("metal: blit between foreign buffers %T, %T", src, dst)
	case n < 0 || srcOff < 0 || dstOff < 0 || srcOff+n > s.n || dstOff+n > d.n:
		return fmt.Errorf("metal: blit of %d bytes from %d of a %d-byte buffer to %d of a %d-byte one", n, srcOff, s.n, dstOff, d.n)
	case n == 0:
		return nil
	}
	err := g.api.blit(s.h, srcOff, d.h, dstOff, n)
	runtime.KeepAlive(s)
	runtime.KeepAlive(d)
	return err
}

// Architecture returns the Metal device's architecture name.
func (g *GPU) Architecture() string { return g.api.architecture() }
