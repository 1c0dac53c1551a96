package fuzz

import (
	"bytes"
	"fmt"
	"hash/fnv"

	"github.com/tfuzz/tfuzz/impls/cpu"
	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/props"
	"github.com/tfuzz/tfuzz/tensor"
)

// cpuEngine is the optimized CPU engine as tfuzz run and tfuzz repro check
// it (default options), so that a crash input of its target replays there.
var cpuEngine tensor.Backend = cpu.New()

// maxFuzzElements keeps fuzzed cases small, inputs and result: a fuzzer
// that grows a tensor to 2^24 elements finds nothing new, only slowness, and
// one that broadcasts [2048, 1] against [1, 2048] makes 2^22 from 2^12.
const maxFuzzElements = 4096

// decode turns fuzz input into a case; ok is false for input that is not a
// case (the decoder's errors are its own property, checked by CheckCodec)
// or is too large to be worth evaluating (tensor.CaseCost).
func decode(data []byte) (*tensor.Case, bool) {
	c, err := tensor.DecodeCase(data)
	if err != nil {
		return nil, false
	}
	cost := tensor.CaseCost(c)
	return c, cost.InputElements <= maxFuzzElements && cost.ResultElements <= maxFuzzElements
}

// CheckCodec: decoding either fails with a *tensor.DecodeError or yields a
// case whose encoding is a fixed point of decode and encode.
func CheckCodec(data []byte) error {
	c, err := tensor.DecodeCase(data)
	if err != nil {
		if _, ok := err.(*tensor.DecodeError); !ok {
			return fmt.Errorf("decode error of type %T: %v", err, err)
		}
		return nil
	}
	line := tensor.EncodeCase(c)
	back, err := tensor.DecodeCase(line)
	if err != nil {
		return fmt.Errorf("re-decoding %s: %v", line, err)
	}
	if again := tensor.EncodeCase(back); !bytes.Equal(again, line) {
		return fmt.Errorf("encoding is not a fixed point:\n%s\n%s", line, again)
	}
	return nil
}

// CheckModel: under every profile the model answers a decodable case with a
// well-formed outcome that names its rules, without panicking.
func CheckModel(data []byte) error {
	c, ok := decode(data)
	if !ok {
		return nil
	}
	for _, p := range model.Names() {
		out := model.Eval(p, c)
		if err := out.Check(); err != nil {
			return fmt.Errorf("%s: %s: %v", p, c.Describe(), err)
		}
		if len(out.Rules) == 0 {
			return fmt.Errorf("%s: %s: outcome %s names no rule", p, c.Describe(), out)
		}
	}
	return nil
}

// CheckBackend: on every profile it claims and supports the case for, the
// backend agrees with the model (the differential property), where the
// model states an outcome, on the case and, when the input draws one, on
// its tier-sized twin on the profile TierTwin names; and it declines no
// case the model answers outside the gaps it lists (tensor.GapLister).
func CheckBackend(b tensor.Backend, data []byte) error {
	c, ok := decode(data)
	if !ok {
		return nil
	}
	for _, p := range b.Profiles() {
		if err := checkOn(b, p, c); err != nil {
			return err
		}
	}
	if twin, p := TierTwin(b, data, c); twin != nil {
		return checkOn(b, p, twin)
	}
	return nil
}

// checkOn is the differential property of one case on one profile.
func checkOn(b tensor.Backend, p string, x *tensor.Case) error {
	if !props.Supports(b, p, x) {
		if f := props.UnclaimedDecline(b, p, x); f != nil {
			return f // a lost coverage (tensor.GapLister)
		}
		return nil
	}
	if model.Eval(p, x).NotModeled() {
		return nil
	}
	if f := props.Differential(b, p, x); f != nil {
		return f
	}
	return nil
}

// TierTwin is the tier-sized case a fuzz target checks besides c, the case
// decoded from data, and the one profile it is checked on; nil when the
// input draws none. A fuzzer's cases stay small (maxFuzzElements), yet the
// backend changes path at sizes far above (tensor.PathSize): so a share of
// the inputs, drawn as a campaign draws its tier cases, also checks c grown
// to one of the backend's path sizes (props.Enlarge), on one of the
// profiles whose path changes there, as a campaign checks a case on one
// target (a twin of 2^16 elements on every profile held one input for
// seconds). The choices and the fill come from a hash of data, so a crash
// input replays its twin.
func TierTwin(b tensor.Backend, data []byte, c *tensor.Case) (*tensor.Case, string) {
	tiers := props.TiersOf(b)
	h := fnv.New64a()
	h.Write(data)
	src := props.NewStream(h.Sum64())
	k := props.DrawTierFor(src, tiers, c.Op)
	if k < 0 {
		return nil, ""
	}
	profiles := tiers[k].Profiles
	if profiles == nil {
		profiles = b.Profiles()
	}
	twin := props.Enlarge(c, &tiers[k], src)
	if twin == nil || len(profiles) == 0 {
		return nil, ""
	}
	return twin, profiles[src.Uint64()%uint64(len(profiles))]
}
