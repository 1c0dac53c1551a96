package cpu

import "github.com/tfuzz/tfuzz/tensor"

// framework is the library a profile stands for.
type framework uint8

const (
	fwPyTorch framework = iota
	fwNumPy
	fwJAX
	fwCandle
	fwBurn
	fwTenferro
)

// arch is the host instruction set whose conversion and division
// instructions decide values C++ leaves undefined.
type arch uint8

const (
	archX86   arch = iota // cvttss2si / cvttsd2si, idiv traps
	archArm64             // fcvtzs / fcvtzu saturate (NaN -> 0), sdiv never traps
)

// numClasses bounds the op classes of the catalog (tensor.OpClass): a
// profile's family table has room for each (TestClassesFit checks).
const numClasses = 32

// family evaluates the ops of one class under the profiles it is attached to.
type family struct {
	// supports reports, from dtypes, shapes and attrs alone, whether eval
	// implements the case. It must be honest and cheap.
	supports func(p *profile, c *tensor.Case) bool
	// eval computes the outcome; it runs only on supported cases.
	eval func(x *Engine, p *profile, c *tensor.Case) tensor.Outcome
}

// profile is the engine's record of one framework configuration: the policy
// fields its families read. The names match the model's profile names; the
// fields are the engine's own.
type profile struct {
	name  string
	fw    framework
	arch  arch
	x64   bool // JAX: jax_enable_x64 (false narrows 64-bit inputs to 32 bits)
	debug bool // Rust debug build: integer overflow checks panic

	families [numClasses]*family
}

// profiles is the engine's profile table, in the case format's order. Files
// that add families or profiles extend it from init functions.
var profiles = []*profile{
	{name: "pytorch/cpu", fw: fwPyTorch, arch: archX86},
	{name: "pytorch/cpu-arm64", fw: fwPyTorch, arch: archArm64},
	{name: "numpy", fw: fwNumPy, arch: archX86},
	{name: "numpy/cpu-arm64", fw: fwNumPy, arch: archArm64},
	{name: "jax/cpu-x32", fw: fwJAX, arch: archX86},
	{name: "jax/cpu-x64", fw: fwJAX, arch: archX86, x64: true},
}

// lookupProfile returns the profile called name (a linear scan over a short
// table: no map on the evaluation path).
func lookupProfile(name string) *profile {
	for _, p := range profiles {
		if p.name == name {
			return p
		}
	}
	return nil
}

// pythonProfiles returns the profiles of PyTorch, NumPy and JAX.
func pythonProfiles() []*profile {
	var ps []*profile
	for _, p := range profiles {
		if p.fw == fwPyTorch || p.fw == fwNumPy || p.fw == fwJAX {
			ps = append(ps, p)
		}
	}
	return ps
}

// attach sets the family of class cl on every profile in ps.
func attach(ps []*profile, cl tensor.OpClass, f *family) {
	for _, p := range ps {
		p.families[cl] = f
	}
}
