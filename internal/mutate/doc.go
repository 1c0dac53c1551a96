// Package mutate measures the power of tfuzz's campaigns: it changes one
// operator or one constant of a package's source at a time (a mutant, as a
// kernel author's slip would look), builds tfuzz with that file replaced
// (go build -overlay, the tree is never touched), runs a short campaign and
// records whether the campaign found the change (a finding: exit 1).
//
// The mutation operators are the usual ones of Go mutation testing:
//
//	arithmetic   + ↔ -, * ↔ /, % → *, and the same in op= assignments
//	boundary     < ↔ <=, > ↔ >=
//	negation     == ↔ !=, < → >=, > → <=
//	logical      && ↔ ||, !x → x
//	bitwise      & ↔ |, ^ → &, &^ → &, << ↔ >>, ^x → x
//	sign         -x → x
//	step         ++ ↔ --
//	constant     an integer literal n → n+1 (0 → 1, 1 → 0)
//
// Sites are found on the typed syntax tree, so that only numeric, boolean
// and integer operands are mutated (no string concatenation), and never in
// code of the bug zoo (if zooBuild && ...), in test files or in files the
// build excludes. A mutant's ID names its file, function, the operator and
// its ordinal among that function's sites of the same kind, so that IDs
// stay put while other functions change; a file of reasons keyed by ID
// explains the survivors that no valid case can kill (equivalent mutants).
//
// scripts/mutation-score.sh runs it; see that script for the flags.
package mutate
