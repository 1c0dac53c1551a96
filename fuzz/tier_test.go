package fuzz

import (
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// TestTierTwinsAreDeterministic: the CPU fuzz target checks a tier-sized twin for some
// inputs, the same twin every time the same input comes (a crash replays).
func TestTierTwinsAreDeterministic(t *testing.T) {
	seeds, err := SeedInputs()
	if err != nil {
		t.Fatal(err)
	}
	twins := 0
	for round := 0; round < 8; round++ {
		for _, data := range seeds {
			data = append(append([]byte{}, data...), make([]byte, round)...)
			c, ok := decode(data)
			if !ok {
				continue
			}
			x, p := TierTwin(cpuEngine, data, c)
			if x == nil {
				continue
			}
			twins++
			if y, q := TierTwin(cpuEngine, data, c); string(tensor.EncodeCase(x)) != string(tensor.EncodeCase(y)) || p != q {
				t.Fatalf("the twin of %s is not deterministic (profile %s, then %s)", c.Describe(), p, q)
			}
		}
	}
	if twins == 0 {
		t.Fatal("no seed input has a tier-sized twin")
	}
	t.Logf("%d twins over %d seed inputs x 8", twins, len(seeds))
}
