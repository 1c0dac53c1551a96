package adapter

import "embed"

// ReferenceFiles holds the reference adapter, python/tfuzz_adapter.py, and
// the module beside it that spells the ops per framework
// (python/tfuzz_frameworks.py), built into the binary so that an installed
// tfuzz can run it: tfuzz's built-in backend "python" writes them into one
// folder of the user's cache and runs ReferenceMain there with the chosen
// interpreter.
//
//go:embed python/tfuzz_adapter.py python/tfuzz_frameworks.py
var ReferenceFiles embed.FS

// ReferenceMain is the script of ReferenceFiles to run.
const ReferenceMain = "python/tfuzz_adapter.py"
