package reports

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/tfuzz/tfuzz/tensor"
)

// Options say how a report refers to what lies beside it.
type Options struct {
	Source   string // the campaign folder or files the findings came from, for the heading
	ReproDir string // where the repro programs are written, relative to the report ("" if not written)
	// ReproProfiles adds profiles to write repro programs for, beside those a
	// finding involves (for instance pytorch/cuda to check the model there).
	ReproProfiles   []string
	Tool            string // the command that replays a finding file ("tfuzz", the default)
	CampaignCommand string // the command that runs the campaign again, when tfuzz run does not
}

// frameworkNames are the frameworks as a reader knows them.
var frameworkNames = map[string]string{"pytorch": "PyTorch", "numpy": "NumPy", "jax": "JAX",
	"candle": "candle", "burn": "burn", "tenferro": "tenferro"}

// Programs returns the repro programs of a finding: one per profile it
// involves and per extra profile, skipping profiles of no known framework.
func Programs(f *Finding, extra []string) []Program {
	var out []Program
	seen := map[string]bool{}
	for _, p := range append(f.Profiles(), extra...) {
		if seen[p] {
			continue
		}
		seen[p] = true
		prog, err := NewProgram(p, f.Case, f.Signature)
		if err == nil {
			out = append(out, prog)
		}
	}
	return out
}

// WriteMarkdown renders findings as Markdown that can be pasted into an issue.
func WriteMarkdown(w io.Writer, findings []*Finding, o Options) error {
	var b strings.Builder
	plural := "s"
	if len(findings) == 1 {
		plural = ""
	}
	fmt.Fprintf(&b, "# tfuzz: %d finding%s\n\n", len(findings), plural)
	if len(findings) == 0 {
		fmt.Fprintf(&b, "No backend departed from the model%s.\n", sourceWords(o.Source))
		_, err := io.WriteString(w, b.String())
		return err
	}
	fmt.Fprintf(&b, "tfuzz %s%s. %s.\n\n", versionOf(findings), sourceWords(o.Source), summary(findings))
	b.WriteString("Each finding is a minimal case, shrunk by tfuzz, on which a backend's outcome differs from " +
		"the outcome tfuzz's reference model states for the framework configuration (profile) the backend " +
		"claims to implement. The model's outcome comes with the rules that decide it, each with its evidence.\n\n")
	b.WriteString("| # | finding | what differs |\n| --- | --- | --- |\n")
	for i, f := range findings {
		fmt.Fprintf(&b, "| %d | [%s](#%s) | %s |\n", i+1, cell(f.Title()), anchor(i+1, f.Title()), cell(differs(f)))
	}
	for i, f := range findings {
		b.WriteString("\n---\n\n")
		writeFinding(&b, i+1, f, o)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func sourceWords(src string) string {
	if src == "" {
		return ""
	}
	return " in `" + src + "`"
}

func versionOf(fs []*Finding) string {
	for _, f := range fs {
		if f.Version != "" {
			return f.Version
		}
	}
	return Version
}

// summary names the backends, profiles and seeds of the findings.
func summary(fs []*Finding) string {
	set := func(get func(*Finding) string) string {
		m := map[string]bool{}
		for _, f := range fs {
			if v := get(f); v != "" {
				m["`"+v+"`"] = true
			}
		}
		var xs []string
		for k := range m {
			xs = append(xs, k)
		}
		sort.Strings(xs)
		return strings.Join(xs, ", ")
	}
	s := "Backend " + set(func(f *Finding) string { return f.Backend }) +
		"; profile " + set(func(f *Finding) string { return f.Profile })
	if seeds := set(func(f *Finding) string {
		if f.Seed == 0 && f.CaseIndex == 0 {
			return ""
		}
		return fmt.Sprint(f.Seed)
	}); seeds != "" {
		s += "; campaign seed " + seeds
	}
	return s
}

// differs says what differs in words, "expected" for the model's side.
func differs(f *Finding) string {
	d := f.Compare.Detail
	d = strings.ReplaceAll(d, "want ", "expected ")
	d = strings.ReplaceAll(d, "got ", "actual ")
	if f.Panicked {
		return "the backend's Go code panicked: " + f.Actual.Message()
	}
	return d
}

// anchor is the GitHub heading anchor of "## N. title".
func anchor(n int, title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(fmt.Sprintf("%d. %s", n, title)) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}

// cell escapes text for a Markdown table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.ReplaceAll(s, "\n", " ")
}

// code writes s as inline code.
func code(s string) string {
	if strings.Contains(s, "`") {
		return "`` " + s + " ``"
	}
	return "`" + s + "`"
}

func writeFinding(b *strings.Builder, n int, f *Finding, o Options) {
	fmt.Fprintf(b, "## %d. %s\n\n", n, f.Title())
	prof := code(f.Profile)
	if doc := ProfileDoc(f.Profile); doc != "" {
		prof += " (" + doc + ")"
	}
	fmt.Fprintf(b, "**What differs.** For %s under profile %s, the model expects %s, but backend `%s` gives %s",
		opWords(f.Case), prof, outcomeWords(f.Expected), f.Backend, outcomeWords(f.Actual))
	if d := differs(f); d != "" && !f.Panicked {
		fmt.Fprintf(b, " (%s)", d)
	}
	b.WriteString(".\n\n")

	fmt.Fprintf(b, "**Minimal inputs**")
	if f.Original > 0 {
		fmt.Fprintf(b, " (shrunk from %d to %s)", f.Original, elementCount(f.Shrunk))
	}
	b.WriteString(":\n\n")
	writeInputs(b, f.Case)

	b.WriteString("\n**Outcomes side by side:**\n\n")
	actualName := "`" + f.Backend + "`"
	if other := f.OtherProfile(); other != "" {
		actualName = "model, `" + other + "`"
	}
	writeSideBySide(b, "expected (model, `"+f.Profile+"`)", "actual ("+actualName+")", f.Expected, f.Actual)

	b.WriteString("\n**Why.** ")
	writeRules(b, "the model's outcome under `"+f.Profile+"`", f.Expected)
	if other := f.OtherProfile(); other != "" {
		writeRules(b, "the model's outcome under `"+other+"`", f.Actual)
	} else if f.Panicked {
		fmt.Fprintf(b, "`%s` panicked in its own Go code, a bug in the backend itself:\n\n```\n%s\n```\n", f.Backend, strings.TrimSpace(firstLines(f.Stack, 12)))
	} else {
		fmt.Fprintf(b, "`%s` is an implementation under test, not the model: no rule produces its outcome. "+
			"It claims profile `%s`, so it should follow the rules above.\n", f.Backend, f.Profile)
	}

	b.WriteString("\n**Reproduce.**\n\n```sh\n")
	for _, c := range f.Replay(o) {
		b.WriteString(c + "\n")
	}
	b.WriteString("```\n")
	own := map[string]bool{}
	for _, p := range f.Profiles() {
		own[p] = true
	}
	var extra []Program
	for _, p := range Programs(f, o.ReproProfiles) {
		if !own[p.Profile] {
			extra = append(extra, p)
			continue
		}
		fmt.Fprintf(b, "\nIn %s", frameworkNames[p.Framework])
		if o.ReproDir != "" {
			fmt.Fprintf(b, " (`%s/%s/%s`, run with `%s`; prints the outcome as case-format JSON)", o.ReproDir, ReproDirOf(f), p.File, p.Run)
		}
		fmt.Fprintf(b, ", profile `%s`, where the model expects %s:\n\n```%s\n%s\n```\n", p.Profile, outcomeWords(p.Expect), p.Language, p.Snippet)
	}
	if len(extra) > 0 {
		b.WriteString("\nThe same inputs in other frameworks, with what the model expects there")
		if o.ReproDir != "" {
			b.WriteString(" (scripts/run-repros-on-gpu.sh runs them and compares)")
		}
		b.WriteString(":\n\n")
		for _, p := range extra {
			name := p.File
			if o.ReproDir != "" {
				name = o.ReproDir + "/" + ReproDirOf(f) + "/" + p.File
			}
			fmt.Fprintf(b, "- `%s` (%s): %s\n", name, p.Profile, outcomeWords(p.Expect))
		}
	}
	fmt.Fprintf(b, "\n<details><summary>The case in case format v1 (tfuzz eval FILE evaluates it)</summary>\n\n```json\n%s\n```\n\n</details>\n", tensor.EncodeCase(f.Case))
	fmt.Fprintf(b, "\nSignature `%s` · tfuzz %s", f.Signature, f.Version)
	if f.File != "" {
		fmt.Fprintf(b, " · `%s`", f.File)
	}
	b.WriteString("\n")
}

func elementCount(n int) string {
	if n == 1 {
		return "1 element"
	}
	return fmt.Sprintf("%d elements", n)
}

func firstLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = append(lines[:n], "...")
	}
	return strings.Join(lines, "\n")
}

// outcomeWords writes an outcome inline: `i8[1] [-128]`, an error `ZeroDivision` (...).
func outcomeWords(o tensor.Outcome) string {
	switch o.Form {
	case tensor.FormValue:
		return code(o.Value.String())
	case tensor.FormError:
		return "an error " + code(string(o.Class)) + " (" + code(o.Message()) + ")"
	case tensor.FormPanic:
		return "a panic (" + code(o.Message()) + ")"
	case tensor.FormCrash:
		return "a crash (" + o.Signal + ")"
	}
	return "unsupported (" + code(o.Message()) + ")"
}

func writeInputs(b *strings.Builder, c *tensor.Case) {
	if len(c.Args) == 0 && !c.IsProgram() {
		fmt.Fprintf(b, "No tensor inputs; attrs: %s\n", code(c.Attrs.String()))
		return
	}
	b.WriteString("| argument | dtype | shape | elements (row-major) |\n| --- | --- | --- | --- |\n")
	for i, a := range c.Args {
		name := string(rune('a' + i))
		if c.Op == "index_select" && i == 1 {
			name = "index"
		}
		if c.IsProgram() {
			name = fmt.Sprintf("arg%d", i)
		}
		if a.Scalar != nil {
			host := ""
			if a.Scalar.Host != "" {
				host = " (" + a.Scalar.Host + ")"
			}
			fmt.Fprintf(b, "| %s | %s scalar%s | | %s |\n", name, a.Scalar.Kind, host, code(a.Scalar.Text))
			continue
		}
		t := a.Tensor
		fmt.Fprintf(b, "| %s | %s | %v | %s |\n", name, t.DType, t.Shape, cell(elements(t, nil)))
	}
	writeViews(b, c)
	if c.IsProgram() {
		writeSteps(b, c)
		return
	}
	if at := c.Attrs.String(); at != "" {
		fmt.Fprintf(b, "\nAttrs: %s\n", code(at))
	}
}

// elements lists a tensor's elements, bolding those that differ from other.
func elements(t, other *tensor.Tensor) string {
	n := t.Len()
	if n == 0 {
		return "(none)"
	}
	var parts []string
	for i := 0; i < n; i++ {
		if i == 16 && n > 20 {
			parts = append(parts, fmt.Sprintf("... (%d more)", n-i))
			break
		}
		s := t.ElementString(i)
		if other != nil && i < other.Len() && elementDiffers(t, other, i) {
			s = "**" + s + "**"
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

func elementDiffers(a, b *tensor.Tensor, i int) bool {
	if a.IsUnspecified(i) || b.IsUnspecified(i) {
		return false
	}
	x, y := a.ElementString(i), b.ElementString(i)
	return x != y
}

func writeSideBySide(b *strings.Builder, left, right string, l, r tensor.Outcome) {
	fmt.Fprintf(b, "| | %s | %s |\n| --- | --- | --- |\n", left, right)
	row := func(name, x, y string) { fmt.Fprintf(b, "| %s | %s | %s |\n", name, cell(x), cell(y)) }
	row("outcome", l.Form.String(), r.Form.String())
	lv, rv := l.Form == tensor.FormValue, r.Form == tensor.FormValue
	if lv || rv {
		dt := func(o tensor.Outcome) string {
			if o.Form == tensor.FormValue {
				return o.Value.DType.String()
			}
			return ""
		}
		sh := func(o tensor.Outcome) string {
			if o.Form == tensor.FormValue {
				return fmt.Sprint(o.Value.Shape)
			}
			return ""
		}
		row("dtype", dt(l), dt(r))
		row("shape", sh(l), sh(r))
		var le, re string
		if lv {
			var other *tensor.Tensor
			if rv && l.Value.DType == r.Value.DType {
				other = r.Value
			}
			le = elements(l.Value, other)
		}
		if rv {
			var other *tensor.Tensor
			if lv && l.Value.DType == r.Value.DType {
				other = l.Value
			}
			re = elements(r.Value, other)
		}
		row("elements", le, re)
	}
	detail := func(o tensor.Outcome) string {
		switch o.Form {
		case tensor.FormError:
			return string(o.Class) + ": " + o.Message()
		case tensor.FormCrash:
			return o.Signal
		case tensor.FormValue:
			return ""
		}
		return o.Message()
	}
	if dl, dr := detail(l), detail(r); dl != "" || dr != "" {
		row("message", dl, dr)
	}
	if len(l.Warnings)+len(r.Warnings) > 0 {
		row("warnings", strings.Join(l.Warnings, "; "), strings.Join(r.Warnings, "; "))
	}
}

func writeRules(b *strings.Builder, what string, o tensor.Outcome) {
	rules := Explain(o)
	if len(rules) == 0 {
		fmt.Fprintf(b, "No rule is recorded for %s.\n\n", what)
		return
	}
	fmt.Fprintf(b, "%s follows from these rules:\n\n", capitalize(what))
	for _, r := range rules {
		fmt.Fprintf(b, "- `%s`: %s", r.Name, r.Doc)
		if r.Source != "" {
			fmt.Fprintf(b, " *(evidence: %s)*", r.Source)
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
