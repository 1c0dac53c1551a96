package main

import (
	"fmt"
	"io"

	"github.com/tfuzz/tfuzz/campaign"
	"github.com/tfuzz/tfuzz/props"
)

// runRepro replays findings: exit 1 while any still diverges, 0 once all are fixed.
func runRepro(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: tfuzz repro FINDING.jsonl...")
		return exitUsage
	}
	code := exitClean
	for _, path := range args {
		sf, err := campaign.ReadFinding(path)
		if err != nil {
			fmt.Fprintf(stderr, "tfuzz repro: %v\n", err)
			return exitUsage
		}
		b, err := openBackend(sf.Info.Backend)
		if err != nil {
			fmt.Fprintf(stderr, "tfuzz repro: %s: backend %q is not available here: %v\n", path, sf.Info.Backend, err)
			return exitUsage
		}
		f := props.Differential(b, sf.Info.Profile, sf.Case)
		closeBackend(b)
		fmt.Fprintf(stdout, "%s\n  %s on %s: %s\n", path, sf.Info.Backend, sf.Info.Profile, sf.Case.Describe())
		if f == nil {
			fmt.Fprintln(stdout, "  fixed: the backend now agrees with the model")
			continue
		}
		code = exitDiverged
		fmt.Fprintf(stdout, "  still diverges (%s)\n  model:   %s\n  backend: %s\n  %s\n  model rules: %v\n",
			f.Compare.Divergence, f.Want, f.Got, f.Compare.Detail, f.Want.Rules)
	}
	return code
}
