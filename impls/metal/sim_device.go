package metal

import (
	"fmt"
	"math/rand/v2"
	"sort"
)

// SimDevice is the simulated Metal device: it runs every kernel of
// kernels/*.metal as its Go twin, thread by thread over the dispatched grid
// (threadgroup kernels group by group, their threads in lockstep phases
// separated by the kernel's barriers). It tracks undefined memory: a fresh
// buffer is undefined until a kernel writes it, and a read outside a buffer
// yields an undefined value, so that a result that depends on what memory
// happened to hold is reported as unspecified instead of as a made-up value.
//
// It also tracks values the hardware computes without a rule that fixes
// them to the bit (a fast-math sqrt, a simd_sum's order: see
// assumptions.go): the twins compute a reference for them (the correctly
// rounded value, a tree order) and mark it loose, and Download reports a
// loose element as undefined unless the device was made WithReferenceMath.
//
// A SimDevice holds no state between dispatches beyond its buffers; it is
// safe for concurrent use when the goroutines use different buffers.
type SimDevice struct {
	// order, when not nil, runs the threads of grid kernels in a random
	// order drawn from it (results must not depend on the order).
	order *rand.Rand
	// reference reports loose values as the reference the twins computed.
	reference bool
	// arch is the architecture name the device reports.
	arch string
}

// SimOption configures a SimDevice.
type SimOption func(*SimDevice)

// WithShuffledThreads runs the threads of every grid kernel in an order
// drawn from seed instead of in order of their position in the grid. A
// kernel whose result depends on the order of its threads is wrong. A
// device made with it is not safe for concurrent use.
func WithShuffledThreads(seed uint64) SimOption {
	return func(d *SimDevice) { d.order = rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)) }
}

// WithReferenceMath makes Download report the twins' reference for the
// values the hardware does not fix (the correctly rounded fast-math
// function, the tree order of a simd_sum) instead of leaving them
// undefined: what a comparison with a real GPU within a tolerance needs.
// A backend on such a device states more than candle/metal fixes.
func WithReferenceMath() SimOption {
	return func(d *SimDevice) { d.reference = true }
}

// WithArchitecture makes the device report arch as its architecture name
// (candle picks its gemm tiles by the name's last letter: p, g, s, d).
func WithArchitecture(arch string) SimOption {
	return func(d *SimDevice) { d.arch = arch }
}

// NewSimDevice returns a simulated device.
func NewSimDevice(opts ...SimOption) *SimDevice {
	d := &SimDevice{}
	for _, o := range opts {
		o(d)
	}
	return d
}

var _ Device = (*SimDevice)(nil)

// MaxThreads is the simulated pipelines' limit on threads per threadgroup
// (what Apple GPUs report for these kernels) and the size of the reduce
// kernels' threadgroup memory (MAX_BLOCK in reduce.metal).
const MaxThreads = 1024

// simBuffer is simulated device memory: bytes and, per byte, whether it
// holds nothing defined, and whether it holds a loose value.
type simBuffer struct {
	data  []byte
	undef []bool
	loose []bool
}

func (b *simBuffer) Len() int { return len(b.data) }

// Name returns "sim".
func (d *SimDevice) Name() string { return "sim" }

// NewBuffer allocates n undefined bytes.
func (d *SimDevice) NewBuffer(n int) (Buffer, error) {
	b := &simBuffer{data: make([]byte, n), undef: make([]bool, n), loose: make([]bool, n)}
	for i := range b.undef {
		b.undef[i] = true
	}
	return b, nil
}

// Upload allocates a buffer holding data.
func (d *SimDevice) Upload(data []byte) (Buffer, error) {
	n := len(data)
	return &simBuffer{data: append([]byte{}, data...), undef: make([]bool, n), loose: make([]bool, n)}, nil
}

// Download returns a copy of b's bytes and of its undefined marks (loose
// bytes count as undefined unless the device reports references).
func (d *SimDevice) Download(b Buffer) ([]byte, []bool, error) {
	sb, ok := b.(*simBuffer)
	if !ok {
		return nil, nil, fmt.Errorf("sim: download of a foreign buffer %T", b)
	}
	undef := append([]bool{}, sb.undef...)
	for i, l := range sb.loose {
		undef[i] = undef[i] || (l && !d.reference)
	}
	return append([]byte{}, sb.data...), undef, nil
}

// HasKernel reports whether kernel name has a twin.
func (d *SimDevice) HasKernel(name string) bool { return twins[name] != nil }

// MaxThreadsPerThreadgroup returns MaxThreads for every kernel.
func (d *SimDevice) MaxThreadsPerThreadgroup(string) int { return MaxThreads }

// Dispatch runs the twin of kernel name over groups x groupSize threads.
func (d *SimDevice) Dispatch(name string, args []Arg, groups, groupSize int) error {
	return d.DispatchGrid(name, args, linearGrid(groups, groupSize))
}

// DispatchGrid runs the twin of kernel name over grid g: a thread kernel
// over a grid in one dimension, a cell kernel over every thread position
// of the grid, a threadgroup kernel once per threadgroup.
func (d *SimDevice) DispatchGrid(name string, args []Arg, g Grid) (err error) {
	tw := twins[name]
	if tw == nil {
		return &KernelError{Name: name}
	}
	if err := d.checkDispatch(tw, args, g); err != nil {
		return errDispatch(name, err)
	}
	defer func() {
		if r := recover(); r != nil {
			if f, ok := r.(memoryFault); ok {
				err = errDispatch(name, f)
				return
			}
			panic(r)
		}
	}()
	n := g.groups()
	switch {
	case tw.group != nil:
		for gid := 0; gid < n[0]; gid++ {
			tw.group(args, uint32(gid), uint32(g.Group[0]))
		}
	case tw.tg != nil:
		for z := 0; z < n[2]; z++ {
			for y := 0; y < n[1]; y++ {
				for x := 0; x < n[0]; x++ {
					tw.tg(args, &tgroup{pos: [3]uint32{uint32(x), uint32(y), uint32(z)},
						size: [3]uint32{uint32(g.Group[0]), uint32(g.Group[1]), uint32(g.Group[2])}, shared: g.Shared})
				}
			}
		}
	default:
		extent := g.Size
		if !g.PerThread {
			for k := range extent {
				extent[k] *= g.Group[k]
			}
		}
		cells := extent[0] * extent[1] * extent[2]
		order := func(i int) int { return i }
		if d.order != nil {
			perm := d.order.Perm(cells)
			order = func(i int) int { return perm[i] }
		}
		for i := 0; i < cells; i++ {
			c := order(i)
			pos := [3]uint32{uint32(c % extent[0]), uint32(c / extent[0] % extent[1]), uint32(c / extent[0] / extent[1])}
			if tw.thread != nil {
				tw.thread(args, pos[0])
			} else {
				tw.cell(args, pos)
			}
		}
	}
	return nil
}

// checkDispatch refuses what Metal would refuse or what the twin cannot
// run: threadgroups of no thread or of more than MaxThreads, a grid in
// more dimensions than the kernel reads, arguments that do not match the
// kernel's.
func (d *SimDevice) checkDispatch(tw *twin, args []Arg, g Grid) error {
	threads := g.threadsPerGroup()
	switch {
	case g.Group[0] < 1 || g.Group[1] < 1 || g.Group[2] < 1 || threads > MaxThreads:
		return fmt.Errorf("threadgroup size %v outside 1..%d threads", g.Group, MaxThreads)
	case g.Size[0] < 0 || g.Size[1] < 0 || g.Size[2] < 0:
		return fmt.Errorf("grid size %v", g.Size)
	case (tw.thread != nil || tw.group != nil) && (g.Size[1] != 1 || g.Size[2] != 1 || g.Group[1] != 1 || g.Group[2] != 1):
		return fmt.Errorf("a grid of %v x %v for a kernel in one dimension", g.Size, g.Group)
	case tw.group != nil && g.PerThread:
		return fmt.Errorf("a threadgroup kernel dispatched per thread")
	case len(args) != tw.arity:
		return fmt.Errorf("%d arguments bound, the kernel takes %d", len(args), tw.arity)
	}
	for i, a := range args {
		if (a.Buf != nil) != tw.buffers[i] {
			return fmt.Errorf("argument %d: buffer/constant mismatch", i)
		}
		if a.Buf != nil {
			if _, ok := a.Buf.(*simBuffer); !ok {
				return fmt.Errorf("argument %d: foreign buffer %T", i, a.Buf)
			}
		}
	}
	return nil
}

// Blit copies n bytes, their undefined and loose marks with them.
func (d *SimDevice) Blit(src Buffer, srcOff int, dst Buffer, dstOff, n int) error {
	s, ok1 := src.(*simBuffer)
	t, ok2 := dst.(*simBuffer)
	switch {
	case !ok1 || !ok2:
		return fmt.Errorf("sim: blit between foreign buffers %T, %T", src, dst)
	case n < 0 || srcOff < 0 || dstOff < 0 || srcOff+n > len(s.data) || dstOff+n > len(t.data):
		return fmt.Errorf("sim: blit of %d bytes from %d of a %d-byte buffer to %d of a %d-byte one", n, srcOff, len(s.data), dstOff, len(t.data))
	}
	copy(t.data[dstOff:dstOff+n], s.data[srcOff:srcOff+n])
	copy(t.undef[dstOff:dstOff+n], s.undef[srcOff:srcOff+n])
	copy(t.loose[dstOff:dstOff+n], s.loose[srcOff:srcOff+n])
	return nil
}

// Architecture returns the architecture the device was made with
// (WithArchitecture), by default that of an M1 ("applegpu_g13g").
func (d *SimDevice) Architecture() string {
	if d.arch == "" {
		return "applegpu_g13g"
	}
	return d.arch
}

// memoryFault is a store outside a buffer: a bug in a kernel or its host
// code (a real GPU would corrupt memory or fault).
type memoryFault string

func (f memoryFault) Error() string { return string(f) }

// twin is the Go twin of one MSL kernel: exactly one of thread (a kernel
// indexed by a uint [[thread_position_in_grid]]), cell (one indexed by a
// uint2 or uint3 position in the grid), group (a kernel using threadgroup
// memory, run one threadgroup at a time, in a grid of one dimension) and
// tg (a threadgroup kernel of a grid in three dimensions) is set.
type twin struct {
	name    string
	source  string // the .metal file, without extension
	arity   int    // number of bound arguments
	buffers []bool // which arguments are device buffers
	thread  func(a []Arg, tid uint32)
	cell    func(a []Arg, pos [3]uint32)
	group   func(a []Arg, gid, block uint32)
	tg      func(a []Arg, g *tgroup)
}

// tgroup is one threadgroup of a tg kernel: its position in the grid
// (threadgroup_position_in_grid), its size (threads_per_threadgroup) and
// the lengths in bytes of its threadgroup memory arguments.
type tgroup struct {
	pos, size [3]uint32
	shared    []int
}

// twins is the kernel registry: kernel name -> twin. Files sim_*.go fill
// it from init functions, one entry per instantiation in kernels/*.metal.
var twins = map[string]*twin{}

// signature describes a kernel's bound arguments: 'c' for constant data,
// 'b' for a device buffer, in binding order.
func register(source, name, signature string, tw twin) {
	if twins[name] != nil {
		panic("metal: twin " + name + " registered twice")
	}
	tw.name, tw.source, tw.arity = name, source, len(signature)
	for _, c := range signature {
		tw.buffers = append(tw.buffers, c == 'b')
	}
	twins[name] = &tw
}

// TwinNames returns the names of every simulated kernel, sorted.
func TwinNames() []string {
	names := make([]string, 0, len(twins))
	for n := range twins {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// twinSource returns the .metal file (without extension) a twin belongs to.
func twinSource(name string) string {
	if tw := twins[name]; tw != nil {
		return tw.source
	}
	return ""
}

// element returns the byte position of element i of size bytes in b,
// counted from byte off, and false when it does not lie in b.
func (b *simBuffer) element(off int, size, i uint64) (uint64, bool) {
	n := uint64(len(b.data))
	if off < 0 || uint64(off) > n || i >= (n-uint64(off))/size {
		return 0, false
	}
	return uint64(off) + i*size, true
}

// load reads element i of type t from the buffer argument a (counted
// from its offset); outside the buffer, or from bytes never written, it is
// undefined.
func load(a Arg, t mslType, i uint64) val {
	b := a.Buf.(*simBuffer)
	size := uint64(t.size())
	at, ok := b.element(a.Off, size, i)
	if !ok {
		return undefVal
	}
	loose := false
	for k := at; k < at+size; k++ {
		if b.undef[k] {
			return undefVal
		}
		loose = loose || b.loose[k]
	}
	v := t.decode(b.data[at : at+size])
	v.loose = loose
	return v
}

// store writes v as element i of type t into the buffer argument a.
func store(a Arg, t mslType, i uint64, v val) {
	b := a.Buf.(*simBuffer)
	size := uint64(t.size())
	at, ok := b.element(a.Off, size, i)
	if !ok {
		panic(memoryFault(fmt.Sprintf("store of element %d past the end of a %d-byte buffer", i, len(b.data))))
	}
	t.encode(v, b.data[at:at+size])
	for k := at; k < at+size; k++ {
		b.undef[k], b.loose[k] = v.undef, v.loose
	}
}

// elemsPerThread is elems_per_thread<T>() of the .metal files: 8 bytes'
// worth of elements per thread.
func elemsPerThread(t mslType) uint64 { return uint64((8 + t.size() - 1) / t.size()) }

// stridedOffset is strided_offset of the .metal files: the storage offset
// of row-major element i of an array with the given dims and strides
// (32-bit arithmetic, as the kernels compute it), and false when it reads
// past the bound dims or strides, or divides by a zero dim (the kernel
// then reads whatever memory holds).
func stridedOffset(i uint32, rank uint64, dims, strides func(uint64) (uint64, bool)) (uint32, bool) {
	var off uint32
	for k := uint64(0); k < rank; k++ {
		d := rank - 1 - k
		n, ok1 := dims(d)
		s, ok2 := strides(d)
		if !ok1 || !ok2 || n == 0 {
			return 0, false
		}
		off += uint32((uint64(i) % n) * s)
		i = uint32(uint64(i) / n)
	}
	return off, true
}

// loadIf is load(a, t, i) where ok, an undefined value elsewhere.
func loadIf(ok bool, a Arg, t mslType, i uint64) val {
	if !ok {
		return undefVal
	}
	return load(a, t, i)
}
