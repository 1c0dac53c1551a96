//go:build !zoo

package cpu

// zooBuild is false in ordinary builds: every zoo hook is guarded by it, so
// the compiler drops the hooks and the engine pays nothing for them. Build
// with -tags zoo to plant bugs (zoo.go).
const zooBuild = false

// zoo reports whether the planted bug called name is active: never here.
func zoo(string) bool { return false }
