package metal

import (
	"errors"
	"testing"
	"unsafe"

	"pgregory.net/rapid"

	"github.com/tfuzz/tfuzz/tensor"
)

// fakeMetal is metalAPI over the simulated device: "compiling" a source
// parses its kernel names, a pipeline is a name the source defines, and a
// dispatch runs the twin. It exercises the GPU type (library lookup,
// buffers, argument binding) on machines without Metal.
type fakeMetal struct {
	sim *SimDevice
}

type fakeObj struct {
	names map[string]bool // a library
	name  string          // a pipeline
	buf   Buffer          // a buffer
}

func (f *fakeMetal) name() string { return "fake" }

func (f *fakeMetal) compile(source string) (libHandle, error) {
	names, err := KernelNames(source)
	if err != nil {
		return libHandle{}, err
	}
	o := &fakeObj{names: map[string]bool{}}
	for _, n := range names {
		o.names[n] = true
	}
	return libHandle{unsafe.Pointer(o)}, nil
}

func (f *fakeMetal) pipeline(lib libHandle, name string) (pipeHandle, int, bool, error) {
	if !(*fakeObj)(lib.p).names[name] {
		return pipeHandle{}, 0, false, nil
	}
	return pipeHandle{unsafe.Pointer(&fakeObj{name: name})}, 512, true, nil
}

func (f *fakeMetal) newBuffer(data []byte, n int) (bufHandle, error) {
	if data == nil {
		data = make([]byte, n) // Metal's new buffers read as zeros
	}
	b, err := f.sim.Upload(data)
	return bufHandle{unsafe.Pointer(&fakeObj{buf: b})}, err
}

func (f *fakeMetal) read(b bufHandle, n int) []byte {
	data, _, _ := f.sim.Download((*fakeObj)(b.p).buf)
	return data[:n]
}

func (f *fakeMetal) release(any) {}

func (f *fakeMetal) dispatch(p pipeHandle, args []Arg, g Grid) error {
	bound := make([]Arg, len(args))
	for i, a := range args {
		bound[i] = a
		if a.Buf != nil {
			bound[i].Buf = (*fakeObj)(a.Buf.(*gpuBuffer).h.p).buf
		}
	}
	return f.sim.DispatchGrid((*fakeObj)(p.p).name, bound, g)
}

func (f *fakeMetal) blit(src bufHandle, srcOff int, dst bufHandle, dstOff, n int) error {
	return f.sim.Blit((*fakeObj)(src.p).buf, srcOff, (*fakeObj)(dst.p).buf, dstOff, n)
}

func (f *fakeMetal) architecture() string { return f.sim.Architecture() }

// TestGPUOnFakeMetal runs generated cases through the GPU device type on
// fakeMetal and through the simulated device: the outcomes agree wherever
// the simulator does not read undefined memory (the fake's buffers start
// as zeros, a real GPU's as whatever they held).
func TestGPUOnFakeMetal(t *testing.T) {
	g, err := newGPU(&fakeMetal{sim: NewSimDevice()})
	if err != nil {
		t.Fatal(err)
	}
	gpu, sim := New("fake-gpu", g), NewSim()
	if g.MaxThreadsPerThreadgroup("badd_f32") != 512 || g.HasKernel("badd_i32") || !g.HasKernel("is_u8_bf16") {
		t.Fatal("the GPU does not look kernels up in its libraries")
	}
	rapid.Check(t, func(rt *rapid.T) {
		c := genCase().Draw(rt, "case")
		want, got := sim.Eval(Profile, c), gpu.Eval(Profile, c)
		if cmp := tensor.Compare(want, got, 0); !cmp.Match() {
			rt.Fatalf("%s: sim %s, gpu %s", c.Describe(), want, got)
		}
	})
}

func TestNewGPUWithoutMetal(t *testing.T) {
	if _, err := openMetal(); err == nil {
		t.Skip("this machine has Metal")
	}
	if _, err := NewGPU(); !errors.Is(err, errNoMetal) {
		t.Errorf("NewGPU without Metal: %v", err)
	}
}
