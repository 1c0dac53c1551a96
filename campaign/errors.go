package campaign

// InputError is an error in what the user gave: a flag that does not fit
// the campaign in the output folder, an output folder that cannot be
// created or is in use, a missing or corrupt state.json or finding file. It
// is told apart from a failure of tfuzz itself (exit 2, not 70).
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// OtherCampaignError is a resume refused because the checkpoint in the
// output folder is of another campaign (seed, shard, targets or generator
// options differ).
type OtherCampaignError struct{ Err error }

func (e *OtherCampaignError) Error() string { return e.Err.Error() }
func (e *OtherCampaignError) Unwrap() error { return e.Err }
