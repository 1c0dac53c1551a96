package props

import (
	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/tensor"
)

// ModelBackend is the reference model answering as profile To, whatever
// profile it is asked about. Checking it against the model under profile P
// (Differential(ModelBackend{To: Q}, P, c), or a campaign with the target
// ModelBackend{To: Q} on P) compares the model with itself, layer 3 of
// DESIGN.md: every divergence is a portability hazard of moving a program
// from P to Q, and campaigns and Shrink turn them into minimal examples.
//
// Where the model states no outcome on either side (a rule named
// "...not-modeled", or a profile it does not have), there is nothing to
// compare: Supports declines such a case, and Eval answers as the model does
// under the asked profile, so that shrinking never walks into what the model
// does not know and reports it as a difference.
type ModelBackend struct {
	To   string   // the profile whose answers it gives
	From []string // the profiles it claims; nil: every modeled profile
}

// Name is "model:" followed by the profile it answers as.
func (b ModelBackend) Name() string { return "model:" + b.To }

// Profiles returns From, or every modeled profile.
func (b ModelBackend) Profiles() []string {
	if b.From != nil {
		return b.From
	}
	return model.Names()
}

// Supports reports whether the model states an outcome for c under both
// profile and To.
func (b ModelBackend) Supports(profile string, c *tensor.Case) bool {
	return !NotModeled(model.Eval(profile, c)) && !NotModeled(model.Eval(b.To, c))
}

// Eval returns the model's outcome under To, or under profile where either
// side is not modeled.
func (b ModelBackend) Eval(profile string, c *tensor.Case) tensor.Outcome {
	out := model.Eval(b.To, c)
	if NotModeled(out) {
		return model.Eval(profile, c)
	}
	if from := model.Eval(profile, c); NotModeled(from) {
		return from
	}
	return out
}

// NotModeled reports whether an outcome of the model says that the model
// does not state this case (yet): the rule that decided it states nothing,
// or the profile is not modeled (tensor.CauseNotModeled).
func NotModeled(o tensor.Outcome) bool { return o.NotModeled() }
