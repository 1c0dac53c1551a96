package model

import (
	"fmt"
	"sort"
)

// Rule is one named piece of semantics and the evidence for it. Outcomes list
// the names of the rules that decided them.
type Rule struct {
	Name   string // dotted, framework first: "pytorch.cast.float-to-int.x86"
	Doc    string // what it says, in plain words
	Source string // where it comes from: oracle ids, a seed section, source facts
	// Open marks a rule that may leave elements unspecified ("?"): a value the
	// framework does not fix. tfuzz rules counts the elements each produced.
	Open bool
	// StatesNothing marks a rule that says the model does not state the
	// outcome (not modeled yet, unspecified by every source): an
	// unsupported outcome it decides is the model's silence, not a
	// framework's answer (tensor.CauseNotModeled).
	StatesNothing bool
}

// silent marks r as a rule that states nothing (StatesNothing).
func (r *Rule) silent() *Rule {
	r.StatesNothing = true
	return r
}

var ruleRegistry = map[string]*Rule{}

// newRule registers a rule; names are unique.
func newRule(name, doc, source string) *Rule {
	if _, dup := ruleRegistry[name]; dup {
		panic("model: duplicate rule " + name)
	}
	r := &Rule{Name: name, Doc: doc, Source: source}
	ruleRegistry[name] = r
	return r
}

// newOpenRule registers a rule that may leave elements unspecified ("?").
func newOpenRule(name, doc, source string) *Rule {
	r := newRule(name, doc, source)
	r.Open = true
	return r
}

// Rules returns every rule, sorted by name.
func Rules() []*Rule {
	rs := make([]*Rule, 0, len(ruleRegistry))
	for _, r := range ruleRegistry {
		rs = append(rs, r)
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].Name < rs[j].Name })
	return rs
}

// LookupRule returns the rule called name.
func LookupRule(name string) (*Rule, bool) {
	r, ok := ruleRegistry[name]
	return r, ok
}

func (r *Rule) String() string { return fmt.Sprintf("%s: %s [%s]", r.Name, r.Doc, r.Source) }
