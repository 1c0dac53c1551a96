//go:build !darwin || !cgo

package metal

// openMetal fails: Metal exists only on macOS, and this package reaches it
// through cgo.
func openMetal() (metalAPI, error) { return nil, errNoMetal }
