package tensor

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"math/big"
	"strconv"
)

// parseBigInt parses a host integer literal of any size.
func parseBigInt(s string) (*big.Int, bool) {
	return new(big.Int).SetString(s, 10)
}

// EncodeCase writes c as one line of case-format JSON (no trailing newline).
// Fields come in a fixed order: id, group, format, op, args, attrs (a
// program: args, steps), expect, got, source, then unknown fields as they
// were read.
func EncodeCase(c *Case) []byte {
	var b bytes.Buffer
	writeCaseHead(&b, c)
	if c.Got != nil {
		b.WriteString(`, "got": `)
		writeOutcomes(&b, c.Got)
	}
	writeCaseTail(&b, c)
	return b.Bytes()
}

// WriteCaseGot writes c as EncodeCase does, followed by a newline, with the
// "got" field holding the outcome of each of profiles as got returns it: an
// outcome is written as soon as it is computed and need not be kept, and the
// line is never built in memory (a result of 2^24 floats is 400 MB of text).
func WriteCaseGot(w io.Writer, c *Case, profiles []string, got func(profile string) Outcome) error {
	b := bufio.NewWriterSize(w, 64<<10)
	writeCaseHead(b, c)
	b.WriteString(`, "got": {`)
	for i, p := range profiles {
		if i > 0 {
			b.WriteString(", ")
		}
		writeString(b, p)
		b.WriteString(": ")
		writeOutcome(b, got(p))
	}
	b.WriteByte('}')
	writeCaseTail(b, c)
	b.WriteByte('\n')
	return b.Flush()
}

// writer is what the encoder writes to: a bytes.Buffer or a bufio.Writer.
type writer interface {
	io.Writer
	io.ByteWriter
	io.StringWriter
}

// writeCaseHead writes the case's fields up to expect (not closing the object).
func writeCaseHead(b writer, c *Case) {
	b.WriteByte('{')
	if c.ID != "" {
		b.WriteString(`"id": `)
		writeString(b, c.ID)
		b.WriteString(", ")
	}
	if c.Group != "" {
		b.WriteString(`"group": `)
		writeString(b, c.Group)
		b.WriteString(", ")
	}
	if c.Format != 0 {
		b.WriteString(`"format": ` + strconv.Itoa(c.Format) + ", ")
	}
	if c.IsProgram() {
		writeProgramHead(b, c)
	} else {
		b.WriteString(`"op": `)
		writeString(b, c.Op)
		b.WriteString(`, "args": [`)
		writeArgs(b, c.Args)
		b.WriteString(`], "attrs": `)
		writeAttrs(b, c.Attrs)
	}
	if c.Expect != nil {
		b.WriteString(`, "expect": `)
		writeOutcomes(b, c.Expect)
	}
}

// writeCaseTail writes the fields after got and closes the object.
func writeCaseTail(b writer, c *Case) {
	if c.Source != "" {
		b.WriteString(`, "source": `)
		writeString(b, c.Source)
	}
	for _, f := range c.Extra {
		b.WriteString(", ")
		writeString(b, f.Name)
		b.WriteString(": ")
		b.Write(compact(f.Value))
	}
	b.WriteByte('}')
}

// EncodeOutcome writes one outcome object.
func EncodeOutcome(o Outcome) []byte {
	var b bytes.Buffer
	writeOutcome(&b, o)
	return b.Bytes()
}

// EncodeTensor writes one tensor object (a view with its "view" object).
func EncodeTensor(t *Tensor) []byte {
	var b bytes.Buffer
	writeTensor(&b, t)
	return b.Bytes()
}

func compact(raw json.RawMessage) []byte {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return raw
	}
	return b.Bytes()
}

func writeString(b writer, s string) {
	var tmp bytes.Buffer
	enc := json.NewEncoder(&tmp)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	b.Write(bytes.TrimRight(tmp.Bytes(), "\n"))
}

func writeScalar(b writer, s *Scalar) {
	b.WriteString(`{"scalar": `)
	writeString(b, s.Text)
	b.WriteString(`, "kind": `)
	writeString(b, string(s.Kind))
	if s.Host != "" {
		b.WriteString(`, "host": `)
		writeString(b, s.Host)
	}
	b.WriteByte('}')
}

// writeTensor writes an input tensor: a view as its storage and "view" object.
func writeTensor(b writer, t *Tensor) { writeTensorAs(b, t, t.IsView()) }

// writeTensorAs writes t, as a view (storage and steps) or by its logical
// elements row-major (outcomes are always written contiguous).
func writeTensorAs(b writer, t *Tensor, asView bool) {
	b.WriteString(`{"dtype": "`)
	b.WriteString(t.DType.String())
	b.WriteString(`", "shape": `)
	writeInts(b, t.Shape)
	b.WriteString(`, "data": [`)
	elems := t
	if asView { // the storage, then the steps that make the view
		elems = t.Storage()
	}
	for i := 0; i < elems.Len(); i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		writeElement(b, elems, i)
	}
	if elems != t {
		b.WriteString(`], "view": `)
		writeView(b, t.View)
		b.WriteByte('}')
		return
	}
	b.WriteString("]}")
}

func writeInts(b writer, xs []int) {
	b.WriteByte('[')
	for i, x := range xs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(x))
	}
	b.WriteByte(']')
}

func writeElement(b writer, t *Tensor, i int) {
	d := t.DType
	switch {
	case t.IsUnspecified(i):
		b.WriteString(`"?"`)
	case d == Bool || d.IsInt():
		b.WriteString(t.ElementString(i))
	case d.IsComplex():
		c := t.Complex(i)
		b.WriteString(`["` + FormatFloat(real(c)) + `", "` + FormatFloat(imag(c)) + `"]`)
	default:
		b.WriteString(`"` + FormatFloat(t.Float(i)) + `"`)
	}
}

func writeAttrs(b writer, a Attrs) {
	b.WriteByte('{')
	n := 0
	key := func(k string) {
		if n > 0 {
			b.WriteString(", ")
		}
		n++
		writeString(b, k)
		b.WriteString(": ")
	}
	if a.Dim != nil {
		key("dim")
		b.WriteString(strconv.Itoa(*a.Dim))
	}
	if a.Keepdim != nil {
		key("keepdim")
		b.WriteString(strconv.FormatBool(*a.Keepdim))
	}
	for _, f := range a.sortBools() {
		key(f.name)
		b.WriteString(strconv.FormatBool(f.v))
	}
	if a.To.Valid() {
		key("to")
		writeString(b, a.To.String())
	}
	if a.Mode != "" {
		key("mode")
		writeString(b, a.Mode)
	}
	if a.Literal != nil {
		key("literal")
		writeString(b, *a.Literal)
	}
	if a.Start != nil {
		key("start")
		writeString(b, *a.Start)
	}
	if a.End != nil {
		key("end")
		writeString(b, *a.End)
	}
	if a.Value != nil {
		key("value")
		writeString(b, *a.Value)
	}
	if a.Shape != nil {
		key("shape")
		writeInts(b, a.Shape)
	}
	if a.DType.Valid() {
		key("dtype")
		writeString(b, a.DType.String())
	}
	if a.Rank != nil {
		key("rank")
		b.WriteString(strconv.Itoa(*a.Rank))
	}
	if a.ToleranceULPs != 0 {
		key("tolerance_ulps")
		b.WriteString(strconv.Itoa(a.ToleranceULPs))
	}
	b.WriteByte('}')
}

func writeOutcomes(b writer, os Outcomes) {
	b.WriteByte('{')
	for i, po := range os {
		if i > 0 {
			b.WriteString(", ")
		}
		writeString(b, po.Profile)
		b.WriteString(": ")
		writeOutcome(b, po.Outcome)
	}
	b.WriteByte('}')
}

func writeOutcome(b writer, o Outcome) {
	b.WriteByte('{')
	switch o.Form {
	case FormValue:
		b.WriteString(`"value": `)
		writeTensorAs(b, o.Value, false)
	case FormError:
		b.WriteString(`"error": {"class": `)
		writeString(b, string(o.Class))
		b.WriteString(`, "message": `)
		writeString(b, o.Message())
		b.WriteByte('}')
	case FormPanic, FormUnsupported:
		b.WriteString(`"` + o.Form.String() + `": {"message": `)
		writeString(b, o.Message())
		b.WriteByte('}')
	case FormCrash:
		b.WriteString(`"crash": {"signal": `)
		writeString(b, o.Signal)
		b.WriteByte('}')
	}
	writeList := func(name string, list []string) {
		if len(list) == 0 {
			return
		}
		b.WriteString(`, "` + name + `": [`)
		for i, s := range list {
			if i > 0 {
				b.WriteString(", ")
			}
			writeString(b, s)
		}
		b.WriteByte(']')
	}
	writeList("warnings", o.Warnings)
	writeList("rules", o.Rules)
	b.WriteByte('}')
}
