package metal

import (
	"github.com/tfuzz/tfuzz/tensor"
)

// Profile is the model profile this package implements.
const Profile = "candle/metal"

// Backend is candle 0.11's Metal backend for the ops of the catalog that
// have Metal kernels, running on a Device: the simulated one (NewSim, named
// "metal-sim") on every machine, a real GPU on macOS (NewGPU).
type Backend struct {
	name string
	dev  Device
}

var _ tensor.Backend = (*Backend)(nil)

// NewSim returns the backend on a simulated device.
func NewSim(opts ...SimOption) *Backend {
	return &Backend{name: "metal-sim", dev: NewSimDevice(opts...)}
}

// New returns the backend on dev, reported under name.
func New(name string, dev Device) *Backend { return &Backend{name: name, dev: dev} }

// Name identifies the backend in reports: "metal-sim", or "metal" on a GPU.
func (b *Backend) Name() string { return b.name }

// Device returns the device the backend runs on.
func (b *Backend) Device() Device { return b.dev }

// Profiles returns the one profile the backend claims.
func (b *Backend) Profiles() []string { return []string{Profile} }

// simulatedClasses are the op classes whose candle calls reach the kernels
// of kernels/*.metal; cumsum (a matmul), creation other than full, and
// to_host are not here.
var simulatedClasses = map[tensor.OpClass]bool{
	tensor.ClassBinary: true, tensor.ClassUnary: true, tensor.ClassCast: true,
	tensor.ClassReduce: true, tensor.ClassIndexSelect: true,
	tensor.ClassBroadcast: true, tensor.ClassWhere: true, tensor.ClassClamp: true, tensor.ClassFull: true,
	tensor.ClassCat: true, tensor.ClassSort: true, tensor.ClassMatmul: true,
}

// Supports reports whether c is a case of candle/metal the backend runs:
// an op of a simulated class with well-formed arguments. It declines host
// scalars whose kind and text disagree (an integer-kind "2.5"), whose Rust
// typing it does not state, and max/min over all elements of a view that
// is not contiguous (candle first copies it with copy2d or a blit, which
// are not simulated), and sorts of rows longer than a threadgroup holds
// (candle dispatches one thread per element of a row, which Metal refuses
// past the pipeline's limit).
func (b *Backend) Supports(profile string, c *tensor.Case) bool {
	if profile != Profile || c == nil {
		return false
	}
	if c.IsProgram() {
		_, ok := b.runProgram(c)
		return ok
	}
	return b.supportsOp(c)
}

// supportsOp is Supports for a single-op case.
func (b *Backend) supportsOp(c *tensor.Case) bool {
	op, ok := tensor.LookupOp(c.Op)
	if !ok || !simulatedClasses[op.Class] {
		return false
	}
	tensors := 0
	for _, a := range c.Args {
		switch {
		case a.Tensor != nil && a.Scalar == nil:
			t := a.Tensor
			if !t.DType.Valid() || t.HasUnspecified() || !storageHolds(t) {
				return false
			}
			if (c.Op == "max" || c.Op == "min") && c.Attrs.Dim == nil && t.Strides != nil && !isContiguous(t.Shape, t.Strides) {
				return false
			}
			tensors++
		case a.Scalar != nil && a.Tensor == nil:
			if !scalarWellTyped(a.Scalar) {
				return false
			}
		case a.IsNull() && op.Class == tensor.ClassClamp:
		default:
			return false
		}
	}
	switch op.Class {
	case tensor.ClassReduce, tensor.ClassCumsum:
		// candle's sum, mean and cumsum take no dtype argument: the model
		// answers unsupported, which the simulator does not spell
		return len(c.Args) == 1 && tensors == 1 && !c.Attrs.DType.Valid()
	case tensor.ClassBinary:
		return len(c.Args) == 2 && tensors >= 1
	case tensor.ClassBroadcast:
		return len(c.Args) == 2 && tensors == 2
	case tensor.ClassWhere, tensor.ClassClamp:
		return len(c.Args) == 3 && c.Args[0].Tensor != nil
	case tensor.ClassFull: // a half value (half::f16::from_f64) is not modeled
		return len(c.Args) == 0 && c.Attrs.Value != nil && c.Attrs.DType != tensor.F16 && c.Attrs.DType != tensor.BF16
	case tensor.ClassCast:
		return len(c.Args) == 1 && tensors == 1 && c.Attrs.To.Valid()
	case tensor.ClassIndexSelect:
		return len(c.Args) == 2 && tensors == 2
	case tensor.ClassMatmul:
		return len(c.Args) == 2 && tensors == 2
	case tensor.ClassCat:
		return len(c.Args) >= 1 && tensors == len(c.Args) && c.Attrs.Dim != nil
	case tensor.ClassSort: // a row past 1024 threads is more than a threadgroup holds
		t := c.Args[0].Tensor
		return len(c.Args) == 1 && tensors == 1 && (t.Rank() == 0 || t.Shape[t.Rank()-1] <= MaxThreads)
	}
	return len(c.Args) == 1 && tensors == 1
}

// storageHolds reports whether every element of t lies in its storage,
// with no negative stride (candle's strides are usize).
func storageHolds(t *tensor.Tensor) bool {
	words := 1
	if t.DType.IsComplex() {
		words = 2
	}
	if t.Strides == nil {
		return t.Offset >= 0 && (t.Offset+t.Len())*words <= len(t.Data)
	}
	if len(t.Strides) != t.Rank() || t.Offset < 0 {
		return false
	}
	last := t.Offset
	for k, n := range t.Shape {
		if t.Strides[k] < 0 {
			return false
		}
		if n == 0 {
			return true
		}
		last += (n - 1) * t.Strides[k]
	}
	return (last+1)*words <= len(t.Data)
}

// scalarWellTyped reports whether a scalar's text is a literal of its kind.
func scalarWellTyped(s *tensor.Scalar) bool {
	switch s.Kind {
	case tensor.ScalarBool:
		return s.Text == "true" || s.Text == "false"
	case tensor.ScalarInt:
		return rustIntLit.MatchString(s.Text)
	case tensor.ScalarFloat:
		_, err := tensor.ParseFloatText(s.Text)
		return err == nil && !rustIntLit.MatchString(s.Text)
	}
	return false
}

// Eval runs c as candle/metal on the backend's device. Cases it does not
// support get an unsupported outcome that says so.
func (b *Backend) Eval(profile string, c *tensor.Case) tensor.Outcome {
	if profile == Profile && c != nil && c.IsProgram() {
		if out, ok := b.runProgram(c); ok {
			return out
		}
	}
	if !b.Supports(profile, c) {
		return tensor.UnsupportedOutcome("%s: %s is not implemented for %s", b.name, c.Op, profile)
	}
	h := &host{dev: b.dev}
	return h.evalCase(c)
}

// runProgram runs the steps of program c in order on the device, each
// result downloaded and uploaded again as the next step's input (the
// simulator keeps no tensor between calls; the values are the same), the
// first outcome that is not a value ending it. ok is false when a step
// that runs is not simulated.
func (b *Backend) runProgram(c *tensor.Case) (tensor.Outcome, bool) {
	vals := make([]*tensor.Tensor, len(c.Steps))
	var out tensor.Outcome
	for j := range c.Steps {
		sc := c.StepCase(j, vals)
		if !b.supportsOp(sc) {
			return out, false
		}
		h := &host{dev: b.dev}
		if out = h.evalCase(sc); out.Form != tensor.FormValue {
			return out, true
		}
		vals[j] = out.Value
	}
	return out, true
}
