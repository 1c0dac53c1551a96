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
func (d *SimDevice) Dispatch(name string, args []Arg, groups, groupSize int) (err error) {
	tw := twins[name]
	switch {
	case tw == nil:
		return &KernelError{Name: name}
	case groupSize < 1 || groupSize > MaxThreads:
		return errDispatch(name, fmt.Errorf("threadgroup size %d outside 1..%d", groupSize, MaxThreads))
	case groups < 0:
		return errDispatch(name, fmt.Errorf("%d threadgroups", groups))
	case len(args) != tw.arity:
		return errDispatch(name, fmt.Errorf("%d arguments bound, the kernel takes %d", len(args), tw.arity))
	}
	for i, a := range args {
		if (a.Buf != nil) != tw.buffers[i] {
			return errDispatch(name, fmt.Errorf("argument %d: buffer/constant mismatch", i))
		}
		if a.Buf != nil {
			if _, ok := a.Buf.(*simBuffer); !ok {
				return errDispatch(name, fmt.Errorf("argument %d: foreign buffer %T", i, a.Buf))
			}
		}
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
	if tw.group != nil {
		for g := 0; g < groups; g++ {
			tw.group(args, uint32(g), uint32(groupSize))
		}
		return nil
	}
	n := groups * groupSize
	if d.order == nil {
		for tid := 0; tid < n; tid++ {
			tw.thread(args, uint32(tid))
		}
		return nil
	}
	for _, tid := range d.order.Perm(n) {
		tw.thread(args, uint32(tid))
	}
	return nil
}

// memoryFault is a store outside a buffer: a bug in a kernel or its host
// code (a real GPU would corrupt memory or fault).
type memoryFault string

func (f memoryFault) Error() string { return string(f) }

// twin is the Go twin of one MSL kernel: exactly one of thread (a kernel
// indexed by [[thread_position_in_grid]]) and group (a kernel using
// threadgroup memory, run one threadgroup at a time) is set.
type twin struct {
	name    string
	source  string // the .metal file, without extension
	arity   int    // number of bound arguments
	buffers []bool // which arguments are device buffers
	thread  func(a []Arg, tid uint32)
	group   func(a []Arg, gid, block uint32)
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
