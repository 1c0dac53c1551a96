package main

import (
	"github.com/tfuzz/tfuzz/impls/cpu"
	"github.com/tfuzz/tfuzz/impls/metal"
	"github.com/tfuzz/tfuzz/tensor"
)

// The backends built into the tfuzz binary.
func init() {
	registerBackend("cpu", func() tensor.Backend { return cpu.New() })
	registerBackend("metal-sim", func() tensor.Backend { return metal.NewSim() })
}
