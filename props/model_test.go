package props

import (
	"bytes"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/tensor"
)

// TestModelTotal checks the model on generated cases under every profile: it
// never panics, its outcomes are well formed, carry the rules that decided
// them (an open rule wherever an element is "?"), survive the codec, and are
// deterministic; an outcome in which the model says it states nothing is
// typed as such (tensor.CauseNotModeled).
func TestModelTotal(t *testing.T) {
	profiles := model.Names()
	rapid.Check(t, func(t *rapid.T) {
		c := GenCase(CaseOptions{}).Draw(t, "case")
		p := rapid.SampledFrom(profiles).Draw(t, "profile")
		got := model.Eval(p, c)
		if err := got.Check(); err != nil {
			t.Fatalf("%s: %s: malformed outcome: %v", p, c.Describe(), err)
		}
		if len(got.Rules) == 0 {
			t.Fatalf("%s: %s: outcome %s names no rule", p, c.Describe(), got)
		}
		if n, by := model.UnspecifiedElements(got); n > 0 && by == "" {
			t.Fatalf("%s: %s: %d elements are \"?\" but no open rule decided them (rules %v)", p, c.Describe(), n, got.Rules)
		}
		enc := tensor.EncodeOutcome(got)
		back, err := tensor.DecodeOutcome(enc)
		if err != nil {
			t.Fatalf("%s: outcome %s does not decode: %v", p, enc, err)
		}
		if !bytes.Equal(tensor.EncodeOutcome(back), enc) {
			t.Fatalf("%s: outcome does not round-trip: %s", p, enc)
		}
		// the model's silence is typed, never told by a message alone
		if got.Form == tensor.FormUnsupported && strings.HasPrefix(got.Message(), "tfuzz:") && !got.NotModeled() {
			t.Fatalf("%s: %s: %s speaks of tfuzz but is not marked as the model's silence (rules %v)", p, c.Describe(), got, got.Rules)
		}
		again := model.Eval(p, c)
		if cmp := tensor.Compare(got, again, 0); !cmp.Match() {
			t.Fatalf("%s: %s: not deterministic: %s", p, c.Describe(), cmp.Detail)
		}
	})
}
