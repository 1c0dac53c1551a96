// Package sample is what the mutate tests mutate.
package sample

import "fmt"

const zooBuild = false

func zoo(string) bool { return false }

// Scale returns a*k+1, or an error for a negative k.
func Scale(a, k int) (int, error) {
	if k < 0 {
		return 0, fmt.Errorf("negative k %d", k-1)
	}
	if zooBuild && zoo("scale") {
		return a * k, nil
	}
	return a*k + 1, nil
}

// Greet is string concatenation, which no operator mutation touches.
func Greet(name string) string { return "hi " + name }
