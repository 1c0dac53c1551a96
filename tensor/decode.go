package tensor

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
)

// DecodeError is bad input in a case file: it names the file, the line and
// the field ("args[1].data[3]") that is wrong.
type DecodeError struct {
	File  string
	Line  int    // 1-based; 0 when unknown
	Field string // JSON path of the offending field; "" for the whole line
	Err   error
}

func (e *DecodeError) Error() string {
	loc := e.File
	if loc == "" {
		loc = "<input>"
	}
	if e.Line > 0 {
		loc += ":" + strconv.Itoa(e.Line)
	}
	if e.Field != "" {
		return fmt.Sprintf("%s: %s: %v", loc, e.Field, e.Err)
	}
	return fmt.Sprintf("%s: %v", loc, e.Err)
}

func (e *DecodeError) Unwrap() error { return e.Err }

// fieldError is an error at a JSON path inside one case; the reader adds file and line.
type fieldError struct {
	field string
	err   error
}

func (e *fieldError) Error() string { return e.field + ": " + e.err.Error() }

func errAt(field, format string, args ...any) error {
	return &fieldError{field, fmt.Errorf(format, args...)}
}

// DecodeCase decodes one case from its JSON text.
func DecodeCase(data []byte) (*Case, error) {
	c, err := decodeCase(data)
	if err != nil {
		var fe *fieldError
		if errors.As(err, &fe) {
			return nil, &DecodeError{Field: fe.field, Err: fe.err}
		}
		return nil, &DecodeError{Err: err}
	}
	return c, nil
}

// Reader reads the cases of a JSON Lines stream one at a time.
type Reader struct {
	name string
	sc   *bufio.Scanner
	line int
}

// NewReader reads cases from r; name is used in errors (a file path).
func NewReader(r io.Reader, name string) *Reader {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), 1<<30)
	return &Reader{name: name, sc: sc}
}

// Next returns the next case, or io.EOF at the end. Blank lines are skipped.
func (r *Reader) Next() (*Case, error) {
	for r.sc.Scan() {
		r.line++
		text := bytes.TrimSpace(r.sc.Bytes())
		if len(text) == 0 {
			continue
		}
		c, err := DecodeCase(text)
		if err != nil {
			de := err.(*DecodeError)
			de.File, de.Line = r.name, r.line
			return nil, de
		}
		return c, nil
	}
	if err := r.sc.Err(); err != nil {
		return nil, &DecodeError{File: r.name, Line: r.line + 1, Err: err}
	}
	return nil, io.EOF
}

// Line returns the line number of the case Next returned last.
func (r *Reader) Line() int { return r.line }

// ReadFile reads every case of a .jsonl file.
func ReadFile(path string) ([]*Case, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var cases []*Case
	r := NewReader(f, path)
	for {
		c, err := r.Next()
		if err == io.EOF {
			return cases, nil
		}
		if err != nil {
			return nil, err
		}
		cases = append(cases, c)
	}
}

// rawObject reads a JSON object's fields in order, rejecting duplicates.
func rawObject(data json.RawMessage, field string) ([]RawField, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, errAt(field, "invalid JSON: %v", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errAt(field, "want an object")
	}
	var fields []RawField
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, errAt(field, "invalid JSON: %v", err)
		}
		name := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, errAt(join(field, name), "invalid JSON: %v", err)
		}
		if seen[name] {
			return nil, errAt(join(field, name), "duplicate field")
		}
		seen[name] = true
		fields = append(fields, RawField{name, raw})
	}
	if _, err := dec.Token(); err != nil {
		return nil, errAt(field, "invalid JSON: %v", err)
	}
	if dec.More() {
		return nil, errAt(field, "trailing data after the object")
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errAt(field, "trailing data after the object")
	}
	return fields, nil
}

func join(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}

func rawArray(data json.RawMessage, field string) ([]json.RawMessage, error) {
	if !isJSON(data, '[') {
		return nil, errAt(field, "want an array, got %s", preview(data))
	}
	var items []json.RawMessage
	if err := json.Unmarshal(data, &items); err != nil {
		return nil, errAt(field, "invalid JSON: %v", err)
	}
	return items, nil
}

func rawString(data json.RawMessage, field string) (string, error) {
	if !isJSON(data, '"') {
		return "", errAt(field, "want a string, got %s", preview(data))
	}
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		return "", errAt(field, "invalid JSON: %v", err)
	}
	return s, nil
}

func rawInt(data json.RawMessage, field string) (int, error) {
	v, err := strconv.ParseInt(string(bytes.TrimSpace(data)), 10, 64)
	if err != nil || v < math.MinInt32 || v > math.MaxInt32 {
		return 0, errAt(field, "want an integer, got %s", preview(data))
	}
	return int(v), nil
}

func rawBool(data json.RawMessage, field string) (bool, error) {
	switch string(bytes.TrimSpace(data)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, errAt(field, "want true or false, got %s", preview(data))
}

func isJSON(data json.RawMessage, first byte) bool {
	d := bytes.TrimSpace(data)
	return len(d) > 0 && d[0] == first
}

func preview(data json.RawMessage) string {
	s := string(bytes.TrimSpace(data))
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return s
}

func decodeCase(line []byte) (*Case, error) {
	fields, err := rawObject(line, "")
	if err != nil {
		return nil, err
	}
	c := &Case{}
	var rawArgs, rawAttrs, rawExpect, rawGot json.RawMessage
	for _, f := range fields {
		switch f.Name {
		case "id":
			c.ID, err = rawString(f.Value, "id")
		case "op":
			c.Op, err = rawString(f.Value, "op")
		case "source":
			c.Source, err = rawString(f.Value, "source")
		case "group":
			c.Group, err = rawString(f.Value, "group")
		case "args":
			rawArgs = f.Value
		case "attrs":
			rawAttrs = f.Value
		case "expect":
			rawExpect = f.Value
		case "got":
			rawGot = f.Value
		default:
			c.Extra = append(c.Extra, f)
		}
		if err != nil {
			return nil, err
		}
	}
	if c.Op == "" {
		return nil, errAt("op", "missing")
	}
	op, ok := LookupOp(c.Op)
	if !ok {
		return nil, errAt("op", "unknown op %q (see tfuzz ops)", c.Op)
	}
	if rawArgs == nil {
		return nil, errAt("args", "missing")
	}
	if c.Args, err = decodeArgs(rawArgs, op); err != nil {
		return nil, err
	}
	if rawAttrs != nil {
		if c.Attrs, err = decodeAttrs(rawAttrs, op); err != nil {
			return nil, err
		}
	}
	if err := checkRequiredAttrs(c.Attrs, op); err != nil {
		return nil, err
	}
	if rawExpect != nil {
		if c.Expect, err = decodeOutcomes(rawExpect, "expect"); err != nil {
			return nil, err
		}
	}
	if rawGot != nil {
		if c.Got, err = decodeOutcomes(rawGot, "got"); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// arity gives the number of args of an op class and which of them must be tensors.
func arity(class OpClass) (n int, tensorsOnly bool) {
	switch class {
	case ClassBinary:
		return 2, false
	case ClassIndexSelect:
		return 2, true
	case ClassFromLiteral, ClassArange, ClassZeros:
		return 0, true
	}
	return 1, true
}

func decodeArgs(data json.RawMessage, op OpInfo) ([]Arg, error) {
	items, err := rawArray(data, "args")
	if err != nil {
		return nil, err
	}
	n, tensorsOnly := arity(op.Class)
	if len(items) != n {
		return nil, errAt("args", "%s takes %d args, got %d", op.Name, n, len(items))
	}
	args := make([]Arg, len(items))
	scalars := 0
	for i, item := range items {
		field := fmt.Sprintf("args[%d]", i)
		fields, err := rawObject(item, field)
		if err != nil {
			return nil, err
		}
		if hasField(fields, "scalar") {
			if tensorsOnly {
				return nil, errAt(field, "%s takes tensors only, got a scalar", op.Name)
			}
			s, err := decodeScalar(fields, field)
			if err != nil {
				return nil, err
			}
			args[i].Scalar = s
			scalars++
			continue
		}
		t, err := decodeTensor(fields, field, false)
		if err != nil {
			return nil, err
		}
		args[i].Tensor = t
	}
	if scalars == len(items) && len(items) > 0 {
		return nil, errAt("args", "%s needs at least one tensor argument", op.Name)
	}
	if op.Class == ClassFromVec && args[0].Tensor.Rank() != 1 {
		return nil, errAt("args[0].shape", "from_vec takes 1-D host data, got rank %d", args[0].Tensor.Rank())
	}
	return args, nil
}

func hasField(fields []RawField, name string) bool {
	for _, f := range fields {
		if f.Name == name {
			return true
		}
	}
	return false
}

func decodeScalar(fields []RawField, field string) (*Scalar, error) {
	s := &Scalar{}
	var err error
	for _, f := range fields {
		switch f.Name {
		case "scalar":
			s.Text, err = rawString(f.Value, join(field, "scalar"))
		case "kind":
			var k string
			k, err = rawString(f.Value, join(field, "kind"))
			s.Kind = ScalarKind(k)
		case "host":
			s.Host, err = rawString(f.Value, join(field, "host"))
		default:
			err = errAt(join(field, f.Name), "unknown scalar field")
		}
		if err != nil {
			return nil, err
		}
	}
	switch s.Kind {
	case ScalarFloat:
		if _, err := ParseFloatText(s.Text); err != nil {
			return nil, errAt(join(field, "scalar"), "%v", err)
		}
	case ScalarInt:
		if _, ok := parseBigInt(s.Text); !ok {
			return nil, errAt(join(field, "scalar"), "%q is not an integer", s.Text)
		}
	case ScalarBool:
		if s.Text != "true" && s.Text != "false" {
			return nil, errAt(join(field, "scalar"), "%q is not true or false", s.Text)
		}
	case ScalarComplex:
		if _, err := ParseComplexText(s.Text); err != nil {
			return nil, errAt(join(field, "scalar"), "%v", err)
		}
	case "":
		return nil, errAt(join(field, "kind"), "missing (float, int, bool or complex)")
	default:
		return nil, errAt(join(field, "kind"), "unknown scalar kind %q (float, int, bool or complex)", s.Kind)
	}
	return s, nil
}

// decodeTensor reads {"dtype", "shape", "data"}; "?" elements are allowed in outcomes only.
func decodeTensor(fields []RawField, field string, allowUnspecified bool) (*Tensor, error) {
	var rawDType, rawShape, rawData json.RawMessage
	for _, f := range fields {
		switch f.Name {
		case "dtype":
			rawDType = f.Value
		case "shape":
			rawShape = f.Value
		case "data":
			rawData = f.Value
		default:
			return nil, errAt(join(field, f.Name), "unknown tensor field")
		}
	}
	for name, raw := range map[string]json.RawMessage{"dtype": rawDType, "shape": rawShape, "data": rawData} {
		if raw == nil {
			return nil, errAt(join(field, name), "missing")
		}
	}
	name, err := rawString(rawDType, join(field, "dtype"))
	if err != nil {
		return nil, err
	}
	d, err := ParseDType(name)
	if err != nil {
		return nil, errAt(join(field, "dtype"), "%v", err)
	}
	shape, err := decodeShape(rawShape, join(field, "shape"))
	if err != nil {
		return nil, err
	}
	items, err := rawArray(rawData, join(field, "data"))
	if err != nil {
		return nil, err
	}
	if n := NumElements(shape); len(items) != n {
		return nil, errAt(join(field, "data"), "has %d elements, shape %v needs %d", len(items), shape, n)
	}
	t := New(d, shape...)
	for i, item := range items {
		ef := fmt.Sprintf("%s.data[%d]", field, i)
		if string(bytes.TrimSpace(item)) == `"?"` {
			if !allowUnspecified {
				return nil, errAt(ef, `"?" is allowed only in outcomes, not in args`)
			}
			t.SetUnspecified(i)
			continue
		}
		if err := decodeElement(t, i, item, ef); err != nil {
			return nil, err
		}
	}
	return t, nil
}

func decodeShape(data json.RawMessage, field string) ([]int, error) {
	items, err := rawArray(data, field)
	if err != nil {
		return nil, err
	}
	if len(items) > MaxRank {
		return nil, errAt(field, "rank %d is over the limit of %d", len(items), MaxRank)
	}
	shape := make([]int, len(items))
	n := 1
	for i, item := range items {
		v, err := strconv.ParseInt(string(bytes.TrimSpace(item)), 10, 64)
		if err != nil || v < 0 {
			return nil, errAt(fmt.Sprintf("%s[%d]", field, i), "want a non-negative integer, got %s", preview(item))
		}
		if v > MaxElements || (v > 0 && n > MaxElements/int(v)) {
			return nil, errAt(field, "%s has more than 2^24 elements", preview(data))
		}
		shape[i] = int(v)
		n *= int(v)
	}
	return shape, nil
}

func decodeElement(t *Tensor, i int, raw json.RawMessage, field string) error {
	d := t.DType
	text := string(bytes.TrimSpace(raw))
	switch {
	case d == Bool:
		b, err := rawBool(raw, field)
		if err != nil {
			return err
		}
		t.SetBool(i, b)
	case d.IsSigned():
		v, err := strconv.ParseInt(text, 10, 64)
		if err != nil || v < d.MinInt() || v > d.MaxInt() {
			return errAt(field, "want an integer in %s range, got %s", d, preview(raw))
		}
		t.SetInt(i, v)
	case d.IsUnsigned():
		v, err := strconv.ParseUint(text, 10, 64)
		if err != nil || v > d.MaxUint() {
			return errAt(field, "want an integer in %s range, got %s", d, preview(raw))
		}
		t.SetUint(i, v)
	case d.IsFloat():
		v, err := floatElement(raw, field)
		if err != nil {
			return err
		}
		t.SetFloat(i, v)
	default: // complex
		parts, err := rawArray(raw, field)
		if err != nil || len(parts) != 2 {
			return errAt(field, "want [re, im] as two float strings, got %s", preview(raw))
		}
		re, err := floatElement(parts[0], field+"[0]")
		if err != nil {
			return err
		}
		im, err := floatElement(parts[1], field+"[1]")
		if err != nil {
			return err
		}
		t.SetComplex(i, complex(re, im))
	}
	return nil
}

func floatElement(raw json.RawMessage, field string) (float64, error) {
	s, err := rawString(raw, field)
	if err != nil {
		return 0, errAt(field, "floats are JSON strings (\"0.5\", \"nan\"), got %s", preview(raw))
	}
	v, err := ParseFloatText(s)
	if err != nil {
		return 0, errAt(field, "%v", err)
	}
	return v, nil
}

// attrKinds says which attrs each op class takes.
var attrKinds = map[OpClass][]string{
	ClassBinary:      {"tolerance_ulps"},
	ClassUnary:       {"tolerance_ulps"},
	ClassCast:        {"to", "mode", "tolerance_ulps"},
	ClassReduce:      {"dim", "keepdim", "tolerance_ulps"},
	ClassCumsum:      {"dim", "tolerance_ulps"},
	ClassIndexSelect: {"dim"},
	ClassFromLiteral: {"literal"},
	ClassArange:      {"start", "end"},
	ClassZeros:       {"shape", "dtype"},
	ClassFromVec:     {"shape"},
	ClassToHost:      {"dtype", "rank"},
}

func decodeAttrs(data json.RawMessage, op OpInfo) (Attrs, error) {
	var a Attrs
	fields, err := rawObject(data, "attrs")
	if err != nil {
		return a, err
	}
	for _, f := range fields {
		field := "attrs." + f.Name
		if !contains(attrKinds[op.Class], f.Name) {
			return a, errAt(field, "%s takes no attr %q", op.Name, f.Name)
		}
		switch f.Name {
		case "dim", "rank", "tolerance_ulps":
			v, err := rawInt(f.Value, field)
			if err != nil {
				return a, err
			}
			switch f.Name {
			case "dim":
				a.Dim = &v
			case "rank":
				if v < 0 || v > MaxRank {
					return a, errAt(field, "rank %d out of 0..%d", v, MaxRank)
				}
				a.Rank = &v
			default:
				if v < 0 {
					return a, errAt(field, "must not be negative")
				}
				a.ToleranceULPs = v
			}
		case "keepdim":
			v, err := rawBool(f.Value, field)
			if err != nil {
				return a, err
			}
			a.Keepdim = &v
		case "to", "dtype":
			s, err := rawString(f.Value, field)
			if err != nil {
				return a, err
			}
			d, err := ParseDType(s)
			if err != nil {
				return a, errAt(field, "%v", err)
			}
			if f.Name == "to" {
				a.To = d
			} else {
				a.DType = d
			}
		case "mode":
			s, err := rawString(f.Value, field)
			if err != nil {
				return a, err
			}
			if s != "cast" && s != "convert" {
				return a, errAt(field, "want \"cast\" or \"convert\", got %q", s)
			}
			a.Mode = s
		case "literal", "start", "end":
			s, err := rawString(f.Value, field)
			if err != nil {
				return a, err
			}
			switch f.Name {
			case "literal":
				a.Literal = &s
			case "start":
				a.Start = &s
			default:
				a.End = &s
			}
		case "shape":
			shape, err := decodeShape(f.Value, field)
			if err != nil {
				return a, err
			}
			a.Shape = shape
		}
	}
	return a, nil
}

func checkRequiredAttrs(a Attrs, op OpInfo) error {
	switch {
	case op.Class == ClassCast && !a.To.Valid():
		return errAt("attrs.to", "cast needs a target dtype")
	case op.Class == ClassFromLiteral && a.Literal == nil:
		return errAt("attrs.literal", "from_literal needs the literal's text")
	case op.Class == ClassArange && a.End == nil:
		return errAt("attrs.end", "arange needs an end")
	case (op.Class == ClassZeros || op.Class == ClassFromVec) && a.Shape == nil:
		return errAt("attrs.shape", "%s needs a shape", op.Name)
	case op.Class == ClassToHost && !a.DType.Valid():
		return errAt("attrs.dtype", "to_host needs the element type it reads as")
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func decodeOutcomes(data json.RawMessage, field string) (Outcomes, error) {
	fields, err := rawObject(data, field)
	if err != nil {
		return nil, err
	}
	var os Outcomes
	for _, f := range fields {
		pf := field + "." + f.Name
		if !KnownProfile(f.Name) {
			return nil, errAt(pf, "unknown profile %q (see tfuzz profiles)", f.Name)
		}
		o, err := decodeOutcome(f.Value, pf)
		if err != nil {
			return nil, err
		}
		os = append(os, ProfileOutcome{f.Name, o})
	}
	return os, nil
}

// DecodeOutcome decodes one outcome object.
func DecodeOutcome(data []byte) (Outcome, error) {
	o, err := decodeOutcome(data, "")
	if err != nil {
		var fe *fieldError
		if errors.As(err, &fe) {
			return o, &DecodeError{Field: fe.field, Err: fe.err}
		}
		return o, &DecodeError{Err: err}
	}
	return o, nil
}

func decodeOutcome(data json.RawMessage, field string) (Outcome, error) {
	var o Outcome
	fields, err := rawObject(data, field)
	if err != nil {
		return o, err
	}
	forms := 0
	for _, f := range fields {
		ff := join(field, f.Name)
		switch f.Name {
		case "value":
			tf, err := rawObject(f.Value, ff)
			if err != nil {
				return o, err
			}
			if o.Value, err = decodeTensor(tf, ff, true); err != nil {
				return o, err
			}
			o.Form = FormValue
		case "error":
			o.Form = FormError
			var e struct {
				Class   string `json:"class"`
				Message string `json:"message"`
			}
			if err := json.Unmarshal(f.Value, &e); err != nil {
				return o, errAt(ff, "want {\"class\": C, \"message\": M}: %v", err)
			}
			if !validErrorClass(ErrorClass(e.Class)) {
				return o, errAt(ff+".class", "unknown error class %q", e.Class)
			}
			o.Class, o.Message = ErrorClass(e.Class), e.Message
		case "panic", "unsupported":
			var e struct {
				Message string `json:"message"`
			}
			if err := json.Unmarshal(f.Value, &e); err != nil {
				return o, errAt(ff, "want {\"message\": M}: %v", err)
			}
			o.Form, o.Message = FormPanic, e.Message
			if f.Name == "unsupported" {
				o.Form = FormUnsupported
			}
		case "crash":
			var e struct {
				Signal string `json:"signal"`
			}
			if err := json.Unmarshal(f.Value, &e); err != nil || e.Signal == "" {
				return o, errAt(ff, "want {\"signal\": S}")
			}
			o.Form, o.Signal = FormCrash, e.Signal
		case "warnings", "rules":
			var list []string
			if err := json.Unmarshal(f.Value, &list); err != nil {
				return o, errAt(ff, "want a list of strings")
			}
			if f.Name == "warnings" {
				o.Warnings = list
			} else {
				o.Rules = list
			}
			continue
		default:
			return o, errAt(ff, "unknown outcome field")
		}
		forms++
	}
	if forms != 1 {
		return o, errAt(field, "an outcome has exactly one of value, error, panic, crash, unsupported (got %d)", forms)
	}
	return o, nil
}
