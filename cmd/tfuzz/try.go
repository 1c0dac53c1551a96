package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/props"
	"github.com/tfuzz/tfuzz/tensor"
)

const tryUsage = `usage: tfuzz try [-p PROFILE]... [--backend B] 'EXPR'...

Answers "what does this expression give in each framework?" without a case
file: EXPR is one case in the notation findings and reports print, e.g.

  tfuzz try 'floor_div(i8[-128], i8[-1])'
  tfuzz try 'add(u8[200, 100], 100)' -p numpy -p candle/cpu-release
  tfuzz try 'cast(f32[nan, 3e9, -0.0]) to=i32'
  tfuzz try 'sum(i32[[2147483647, 1], [0, 0]]) dim=0 keepdim=true'
  tfuzz try 'from_literal() literal=[1, 2.5]'

A tensor is a dtype and its elements: a nested list (the shape is its
nesting: i8[[1, 2], [3, 4]]), a shape and the flat elements (i8[2 2] [1, 2,
3, 4]), or one element for a 0-dim tensor (i64 5). A bare number is a host
scalar (0.5 float, 3 int, true bool); "float scalar 0.5 (f32)" gives its host
type. Attrs follow the call as name=value; tfuzz ops lists each op's.

Prints the model's outcome under every profile (or each -p), side by side,
with the rules that decided each; with --backend, also that backend's
outcome and whether the two match.
Exit 0, or 2 when an expression does not parse.
`

func runTry(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var profiles []string
	var backendName, python string
	fl := newFlags("try", tryUsage, stdout, stderr)
	fl.StringArrayVarP(&profiles, "profile", "p", nil, "only this profile (repeatable; default: every profile)")
	fl.StringVar(&backendName, "backend", "", "also evaluate with this backend: "+backendHelp)
	pythonFlag(fl, &python)
	maxCaseMB := budgetFlag(fl)
	if code, ok := fl.parse(args); !ok {
		return code
	}
	if fl.NArg() == 0 {
		return fl.fail("no expression given")
	}
	if err := checkProfiles("--profile", profiles); err != nil {
		return fl.errorf("%v", err)
	}
	if len(profiles) == 0 {
		profiles = model.Names()
	}
	budget := tensor.Budget{MaxBytes: int64(*maxCaseMB) << 20}
	held := 1
	if backendName != "" {
		held = 2 // the model's outcome and the backend's
	}
	var cases []*tensor.Case
	for _, expr := range fl.Args() {
		c, err := tensor.ParseCase(expr)
		if err != nil {
			return fl.errorf("%s: %v", tensor.Quote(expr), err)
		}
		if err := budget.Check(c, held); err != nil {
			return fl.errorf("%s: %v", tensor.Quote(expr), err)
		}
		cases = append(cases, c)
	}
	var backend tensor.Backend
	if backendName != "" {
		setPython(python)
		b, err := openBackend(backendName)
		if err != nil {
			return fl.errorf("--backend: %v", err)
		}
		defer closeBackend(b)
		fmt.Fprintf(stderr, "tfuzz try: backend %s\n", describeBackend(b))
		backend = boundBackend{b, ctx}
	}
	for i, c := range cases {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		if ctx.Err() != nil {
			return exitUsage
		}
		printTry(ctx, stdout, c, profiles, backend)
	}
	return exitClean
}

// printTry prints one case's outcomes, one row per profile, then what each
// rule named says.
func printTry(ctx context.Context, w io.Writer, c *tensor.Case, profiles []string, backend tensor.Backend) {
	fmt.Fprintln(w, c.Describe())
	fmt.Fprintln(w)
	header := []string{"profile", "model"}
	if backend != nil {
		header = append(header, backend.Name(), "")
	}
	rows := [][]string{append(header, "rules")}
	var rules []string
	for _, p := range profiles {
		want, ok := interruptible(ctx, func() tensor.Outcome { return model.Eval(p, c) })
		if !ok {
			return
		}
		row := []string{p, tryCell(want)}
		if backend != nil {
			got := tensor.UnsupportedOutcome("not served here")
			mark := ""
			if contains(backend.Profiles(), p) && props.Supports(backend, p, c) {
				var panicked bool
				got, _, panicked = props.SafeEval(backend, p, c) // a Go panic is the backend's bug, not tfuzz's
				mark = "MISMATCH"
				switch {
				case panicked:
					mark = "BACKEND PANIC"
				case tensor.Compare(want, got, c.Tolerance()).Match():
					mark = "ok"
				}
			}
			row = append(row, tryCell(got), mark)
		}
		rows = append(rows, append(row, strings.Join(want.Rules, ", ")))
		for _, r := range want.Rules {
			if !contains(rules, r) {
				rules = append(rules, r)
			}
		}
	}
	printTable(w, rows)
	fmt.Fprintln(w, "\nrules:")
	for _, name := range rules {
		if r, ok := model.LookupRule(name); ok {
			fmt.Fprintf(w, "  %s: %s\n", r.Name, r.Doc)
		}
	}
}

// tryCell is an outcome in a table cell: the value, or the error with its message.
func tryCell(o tensor.Outcome) string {
	const width = 60
	s := o.String()
	if len(s) > width {
		s = s[:width-3] + "..."
	}
	return s
}

// printTable prints rows with each column as wide as its widest cell.
func printTable(w io.Writer, rows [][]string) {
	var widths []int
	for _, row := range rows {
		for i, cell := range row {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], len(cell))
		}
	}
	for _, row := range rows {
		var b strings.Builder
		for i, cell := range row {
			if i < len(row)-1 {
				cell = padRight(cell, widths[i]+2)
			}
			b.WriteString(cell)
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}
