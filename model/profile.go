package model

import "github.com/tfuzz/tfuzz/tensor"

// Framework is the library a profile describes.
type Framework string

const (
	PyTorch  Framework = "pytorch"
	NumPy    Framework = "numpy"
	JAX      Framework = "jax"
	Candle   Framework = "candle"
	Burn     Framework = "burn"
	Tenferro Framework = "tenferro"
)

// Device is where a profile's kernels run.
type Device string

const (
	CPU   Device = "cpu"
	CUDA  Device = "cuda"
	MPS   Device = "mps"
	GPU   Device = "gpu" // JAX on an NVIDIA GPU
	Metal Device = "metal"
)

// Arch is the CPU instruction set whose conversion and division instructions
// decide values that C++ leaves undefined.
type Arch string

const (
	X86   Arch = "x86-64"
	Arm64 Arch = "arm64"
)

// Profile is one framework configuration: the policies that decide its
// outcomes. Families share machinery; the fields say where they differ.
type Profile struct {
	Name      string
	Framework Framework
	Device    Device
	Arch      Arch // the host CPU (x86-64 for the oracle's runs)
	X64       bool // JAX: jax_enable_x64
	Debug     bool // Rust debug build: integer overflow checks panic
	Doc       string
	Evidence  string

	eval func(e *evaluation) tensor.Outcome // the family's interpreter
}

var profileRegistry = map[string]*Profile{}

func register(p *Profile) *Profile {
	if !tensor.KnownProfile(p.Name) {
		panic("model: profile " + p.Name + " is not in the case format")
	}
	if _, dup := profileRegistry[p.Name]; dup {
		panic("model: duplicate profile " + p.Name)
	}
	profileRegistry[p.Name] = p
	return p
}

// Lookup returns the profile called name.
func Lookup(name string) (*Profile, bool) {
	p, ok := profileRegistry[name]
	return p, ok
}

// All returns every modeled profile in the case format's order.
func All() []*Profile {
	var ps []*Profile
	for _, name := range tensor.Profiles {
		if p, ok := profileRegistry[name]; ok {
			ps = append(ps, p)
		}
	}
	return ps
}

// Names returns the names of every modeled profile in the case format's order.
func Names() []string {
	var names []string
	for _, p := range All() {
		names = append(names, p.Name)
	}
	return names
}
