package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/tfuzz/tfuzz/tensor"
)

// maxCell caps a column's width so that a long tensor cannot push the others off screen.
const maxCell = 44

// columnTable lays the evaluated cases side by side, as the seed documents
// lay out their comparisons: one row per case, one column per profile. It
// keeps only the cells' text, never the outcomes.
type columnTable struct {
	profiles []string
	rows     []*columnRow
}

type columnRow struct {
	table *columnTable
	name  string
	cells map[string]string
}

func (t *columnTable) add(name string) *columnRow {
	r := &columnRow{table: t, name: name, cells: map[string]string{}}
	t.rows = append(t.rows, r)
	return r
}

func (r *columnRow) set(profile, cell string) {
	if !contains(r.table.profiles, profile) {
		r.table.profiles = append(r.table.profiles, profile)
	}
	if len(cell) > maxCell {
		cell = cell[:maxCell-3] + "..."
	}
	r.cells[profile] = cell
}

func (t *columnTable) print(w io.Writer) {
	header := append([]string{"case"}, t.profiles...)
	rows := [][]string{header}
	for _, r := range t.rows {
		row := []string{r.name}
		for _, p := range t.profiles {
			row = append(row, r.cells[p])
		}
		rows = append(rows, row)
	}
	widths := make([]int, len(header))
	for _, row := range rows {
		for i, cell := range row {
			widths[i] = min(max(widths[i], len(cell)), maxCell)
		}
	}
	for _, row := range rows {
		var b strings.Builder
		for i, cell := range row {
			if len(cell) > maxCell {
				cell = cell[:maxCell-3] + "..."
			}
			if i < len(row)-1 {
				cell = padRight(cell, widths[i]+2)
			}
			b.WriteString(cell)
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

// compactOutcome renders an outcome in a table cell: "i64 [-3, 3]", "ERR DTypeMismatch", "PANIC".
func compactOutcome(o tensor.Outcome) string {
	switch o.Form {
	case tensor.FormValue:
		s := o.Value.String() // "i64[4] [...]"
		if o.Value.Rank() == 1 {
			s = strings.Replace(s, fmt.Sprintf("[%d]", o.Value.Shape[0]), "", 1)
		}
		return s
	case tensor.FormError:
		return "ERR " + string(o.Class)
	case tensor.FormPanic:
		return "PANIC"
	case tensor.FormCrash:
		return "CRASH " + o.Signal
	}
	return "unsupported"
}
