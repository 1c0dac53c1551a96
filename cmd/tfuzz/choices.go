package main

import (
	"fmt"
	"strings"

	"github.com/tfuzz/tfuzz/impls/adapter"
	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/tensor"
)

// Flag values are checked before anything runs, and an unknown one is
// answered with the valid choices.

func checkProfiles(flag string, names []string) error {
	for _, p := range names {
		if _, ok := model.Lookup(p); !ok {
			return fmt.Errorf("%s: unknown profile %q (%s)", flag, p, tensor.Choices(p, model.Names(), ""))
		}
	}
	return nil
}

func checkOps(flag string, names []string) error {
	for _, op := range names {
		if _, ok := tensor.LookupOp(op); !ok {
			err := fmt.Errorf("unknown op %q (%s)", op, tensor.Choices(op, tensor.OpNames(), "tfuzz ops"))
			if flag != "" {
				err = fmt.Errorf("%s: %w", flag, err)
			}
			return err
		}
	}
	return nil
}

func parseDType(flag, name string) (tensor.DType, error) {
	d, err := tensor.ParseDType(name)
	if err != nil {
		return d, fmt.Errorf("%s: %v", flag, err)
	}
	return d, nil
}

// backendHelp lists the backends a --backend flag takes.
var backendHelp = "cpu (the CPU engine), metal-sim (the simulated Metal device), " +
	"python (PyTorch/NumPy/JAX through the built-in adapter; see --python), exec:COMMAND (an adapter, impls/adapter/PROTOCOL.md)"

// claimedProfiles lists the profiles the named built-in backends (all of
// them when none are named) claim.
func claimedProfiles(backends []string) []string {
	if len(backends) == 0 {
		backends = backendNames()
	}
	var ps []string
	for _, name := range backends {
		f, ok := backendFactories[name]
		if !ok {
			continue
		}
		for _, p := range f().Profiles() {
			if !contains(ps, p) {
				ps = append(ps, p)
			}
		}
	}
	return ps
}

// unknownBackend says what backends there are.
func unknownBackend(name string) error {
	valid := append(backendNames(), pythonBackend)
	if strings.HasPrefix(name, "exec") && !adapter.IsExec(name) {
		return fmt.Errorf("unknown backend %q (an adapter is exec:COMMAND)", name)
	}
	return fmt.Errorf("unknown backend %s (%s, or exec:COMMAND)", tensor.Quote(name), tensor.Choices(name, valid, ""))
}
