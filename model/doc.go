// Package model is tfuzz's reference semantics: for every profile (one
// framework configuration, such as "pytorch/cpu" or "candle/metal") it states
// what each op of the case-format catalog produces.
//
// A profile is a record of policies: small named rules, each with the source
// that justifies it (an oracle case, a seed section, a documented behaviour),
// plus per-op kernel-coverage tables. The interpreter is plain and slow on
// purpose: it evaluates element by element in exact arithmetic (int64/uint64
// with explicit wrapping, float64 rounded once to the result dtype, wider
// where a result can overflow) and then applies the profile's rule for that
// situation. Every outcome carries the names of the rules that decided it, so
// a report can say why two frameworks differ.
//
// The model never looks cases up by their values or ids, and it imports no
// implementation (impls/...): an implementation that shared its code could
// not disagree with it.
package model
