package adapter

import _ "embed"

// ReferenceScript is the reference adapter, python/tfuzz_adapter.py, built
// into the binary so that an installed tfuzz can run it (tfuzz's built-in
// backend "python" writes it to the user's cache and runs it with the
// chosen interpreter).
//
//go:embed python/tfuzz_adapter.py
var ReferenceScript []byte
