package props

import (
	"testing"

	"github.com/tfuzz/tfuzz/impls/cpu"
	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/tensor"
)

// TestSortNaNBitsAgree: burn's total_cmp orders NaNs by sign and payload,
// which the case format does not encode (a finding that depends on them
// does not replay from its file), so model and engine both hold every NaN
// of a sign equal. A campaign found them ordering signaling and quiet NaNs
// differently (the model read elements through float64, which quiets
// them); this checks the patterns a generator draws, with both signs.
func TestSortNaNBitsAgree(t *testing.T) {
	eng := cpu.New()
	patterns := map[tensor.DType][]uint64{
		tensor.F16:  {0x7e00, 0xfe00, 0x7c01, 0xfc01, 0x7fff, 0x3c00},
		tensor.BF16: {0x7fc0, 0xffc0, 0x7f81, 0xff81, 0x3f80},
		tensor.F32:  {0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001, 0x7fffffff, 0x3f800000},
		tensor.F64:  {0x7ff8000000000000, 0xfff8000000000000, 0x7ff0000000000001, 0x3ff0000000000000},
	}
	for d, ps := range patterns {
		for _, a := range ps {
			for _, b := range ps {
				x := tensor.New(d, 3)
				x.SetBits(0, a)
				x.SetBits(1, b)
				x.SetBits(2, a)
				for _, op := range []string{"sort", "argsort"} {
					c := &tensor.Case{Op: op, Args: []tensor.Arg{{Tensor: x}}}
					for _, p := range []string{"burn/flex-release", "burn/ndarray", "pytorch/cpu", "numpy", "jax/cpu-x64"} {
						m, g := model.Eval(p, c), eng.Eval(p, c)
						if r := tensor.Compare(m, g, 0); !r.Match() {
							t.Errorf("%s %s(%s %#x %#x %#x): model %s, engine %s", p, op, d, a, b, a, tensor.EncodeOutcome(m), tensor.EncodeOutcome(g))
						}
					}
				}
			}
		}
	}
}
