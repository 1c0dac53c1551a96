package main

import (
	"fmt"
	"sort"

	"github.com/tfuzz/tfuzz/campaign"
	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/tensor"
)

// backendFactories are the implementations tfuzz can check, by name.
var backendFactories = map[string]func() tensor.Backend{}

// registerBackend makes a backend available to run, repro and eval.
func registerBackend(name string, f func() tensor.Backend) { backendFactories[name] = f }

func backendNames() []string {
	var names []string
	for n := range backendFactories {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// selectTargets returns the (backend, profile) pairs a campaign checks: every
// named backend (all when none are named) on every profile it claims that the
// model has and that the profile filter lets through.
func selectTargets(backends, profiles []string) ([]campaign.Target, error) {
	if len(backends) == 0 {
		backends = backendNames()
	}
	var targets []campaign.Target
	for _, name := range backends {
		f, ok := backendFactories[name]
		if !ok {
			return nil, fmt.Errorf("unknown backend %q (have %v)", name, backendNames())
		}
		b := f()
		for _, p := range b.Profiles() {
			if _, ok := model.Lookup(p); !ok {
				continue
			}
			if len(profiles) == 0 || contains(profiles, p) {
				targets = append(targets, campaign.Target{Backend: b, Profile: p})
			}
		}
	}
	return targets, nil
}
