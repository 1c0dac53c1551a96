// Package reports renders what tfuzz finds so that a person who never saw
// tfuzz can act on it:
//
//   - a campaign's findings as Markdown ready to paste into an issue, and as
//     JSON (markdown.go, json.go): per finding the minimal inputs, the
//     expected and the actual outcome side by side, the model's rules that
//     explain each side in plain words, the tfuzz version, the seed and the
//     commands that replay it;
//   - repro programs (repro*.go): for a case and a profile, a standalone
//     program in the framework's own language (PyTorch, NumPy and JAX in
//     Python; candle, burn and tenferro as a Rust main) that builds the same
//     inputs with exact values, runs the same operation and prints its
//     outcome as one line of case-format JSON, with the model's expected
//     outcome in its header (scripts/run-repros-on-gpu.sh compares the two);
//   - the portability atlas (atlas*.go): the model run against itself for
//     two profiles (props.ModelBackend in a campaign), its divergences
//     grouped into classes (op, input dtype kinds, divergence), one shrunk
//     example per class with the outcome and the rules on each side, and the
//     seed documents' examples mapped onto the classes that cover them.
//
// The checked-in atlases (reports/atlas/) and the example report
// (reports/examples/) are generated; the tests regenerate them and fail when
// they are stale: go test ./reports -update rewrites them.
package reports
