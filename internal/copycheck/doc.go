// Package copycheck finds function bodies of one Go source tree that
// reappear in another, renamed or lightly edited. tfuzz uses it to keep the
// reference model and the implementations apart (DESIGN.md): an
// implementation that computes with a copy of the model's code cannot
// disagree with it, so the differential check would prove nothing there.
//
// A body is reduced to a sequence of tokens read from its syntax tree: the
// kind of each node and its operator, identifiers renamed to positional
// placeholders in order of first appearance, literals kept (numbers) or
// reduced to their kind (strings), comments and parentheses dropped. Two
// bodies are a copy when their sequences are equal, or when they share a
// longest common subsequence covering most of both (see Threshold).
package copycheck
