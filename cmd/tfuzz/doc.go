package main

import (
	"fmt"
	"strings"

	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/tensor"
)

// The generated parts of docs/case-format.md: the profiles and the op
// catalog, written from the model and tensor.Ops so that the document
// cannot drift from what tfuzz accepts (TestCaseFormatDoc checks it).

// profilesMarkdown is the table of the model's profiles.
func profilesMarkdown() string {
	var b strings.Builder
	b.WriteString("| profile | what it stands for |\n| --- | --- |\n")
	for _, p := range model.All() {
		fmt.Fprintf(&b, "| `%s` | %s |\n", p.Name, mdCell(p.Doc))
	}
	return b.String()
}

// opsMarkdown is the op catalog: one row per op, then the attrs' meanings.
func opsMarkdown() string {
	var b strings.Builder
	b.WriteString("| op | args | attrs | PyTorch spelling (for orientation) |\n| --- | --- | --- | --- |\n")
	for _, op := range tensor.Ops {
		var args, attrs []string
		for _, a := range op.Args() {
			args = append(args, a.Name+": "+a.Kind)
		}
		for _, at := range op.Attrs() {
			n := "`" + at.Name + "`"
			if at.Required {
				n += "!"
			}
			attrs = append(attrs, n)
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", op.Name, orNone(args), orNone(attrs), mdCell(op.Doc))
	}
	b.WriteString("\n| attr | of | type | meaning |\n| --- | --- | --- | --- |\n")
	type key struct{ name, doc string }
	seen := map[key]int{}
	var rows [][]string
	for _, op := range tensor.Ops {
		for _, at := range op.Attrs() {
			k := key{at.Name, at.Doc}
			if i, ok := seen[k]; ok {
				if !strings.Contains(rows[i][1], "`"+op.Name+"`") {
					rows[i][1] += " `" + op.Name + "`"
				}
				continue
			}
			seen[k] = len(rows)
			rows = append(rows, []string{"`" + at.Name + "`", "`" + op.Name + "`", at.Type, at.Doc})
		}
	}
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %s | %s |\n", r[0], r[1], mdCell(r[2]), mdCell(r[3]))
	}
	return b.String()
}

func orNone(items []string) string {
	if len(items) == 0 {
		return "none"
	}
	return strings.Join(items, ", ")
}

// mdCell escapes the characters that would break a Markdown table cell.
func mdCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
