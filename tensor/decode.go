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
	"strings"
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
	if len(field) > 200 { // a path through a name of megabytes
		field = strings.ToValidUTF8(field[:100], "") + "..."
	}
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
	sc.Buffer(make([]byte, 0, 64<<10), MaxLineBytes+1)
	return &Reader{name: name, sc: sc}
}

// utf8BOM is the byte order mark some editors write at the start of a file.
var utf8BOM = []byte("\xef\xbb\xbf")

// Next returns the next case, or io.EOF at the end. Blank lines are skipped,
// and so is a UTF-8 byte order mark at the start of the stream.
func (r *Reader) Next() (*Case, error) {
	for r.sc.Scan() {
		r.line++
		line := r.sc.Bytes()
		if r.line == 1 {
			line = bytes.TrimPrefix(line, utf8BOM)
		}
		text := bytes.TrimSpace(line)
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
		if errors.Is(err, bufio.ErrTooLong) {
			err = fmt.Errorf("line longer than the limit of %d MiB", MaxLineBytes>>20)
		}
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
// data is valid JSON (checkJSON); the values are sub-slices of it.
func rawObject(data json.RawMessage, field string) ([]RawField, error) {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return nil, errAt(field, "want an object")
	}
	var fields []RawField
	i = skipSpace(data, i+1)
	for i < len(data) && data[i] == '"' {
		end := stringEnd(data, i)
		name := unquoteKey(data[i:end])
		i = skipSpace(data, skipSpace(data, end)+1) // past ':'
		vend := valueEnd(data, i)
		for _, f := range fields {
			if f.Name == name {
				return nil, errAt(join(field, name), "duplicate field")
			}
		}
		fields = append(fields, RawField{name, data[i:vend]})
		i = skipSpace(data, vend)
		if i < len(data) && data[i] == ',' {
			i = skipSpace(data, i+1)
		}
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
	_ = eachItem(data, func(_ int, item []byte) error { items = append(items, item); return nil })
	return items, nil
}

func rawString(data json.RawMessage, field string) (string, error) {
	if !isJSON(data, '"') {
		return "", errAt(field, "want a string, got %s", preview(data))
	}
	return unquoteKey(bytes.TrimSpace(data)), nil
}

func rawInt(data json.RawMessage, field string) (int, error) {
	v, err := strconv.ParseInt(string(bytes.TrimSpace(data)), 10, 64)
	if err != nil {
		return 0, errAt(field, "want an integer, got %s", preview(data))
	}
	if v < math.MinInt32 || v > math.MaxInt32 {
		return 0, errAt(field, "want an integer of 32 bits, got %s", preview(data))
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
	if err := checkJSON(line); err != nil {
		return nil, err
	}
	fields, err := rawObject(line, "")
	if err != nil {
		return nil, err
	}
	c := &Case{}
	var rawArgs, rawAttrs, rawExpect, rawGot, rawSteps json.RawMessage
	hasOp := false
	for _, f := range fields {
		switch f.Name {
		case "format":
			c.Format, err = decodeFormat(f.Value)
		case "steps":
			rawSteps = f.Value
		case "id":
			c.ID, err = rawString(f.Value, "id")
		case "op":
			c.Op, err = rawString(f.Value, "op")
			hasOp = true
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
			// a copy: the line's buffer is reused for the next line
			c.Extra = append(c.Extra, RawField{f.Name, append(json.RawMessage(nil), f.Value...)})
		}
		if err != nil {
			return nil, err
		}
	}
	if c.Format == ProgramFormat || rawSteps != nil {
		err = decodeProgram(c, rawArgs, rawSteps, hasOp, rawAttrs != nil)
	} else {
		err = decodeOp(c, rawArgs, rawAttrs)
	}
	if err != nil {
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

// decodeOp reads the op, args and attrs of a single-op case.
func decodeOp(c *Case, rawArgs, rawAttrs json.RawMessage) error {
	var err error
	if c.Op == "" {
		return errAt("op", "missing")
	}
	op, ok := LookupOp(c.Op)
	if !ok {
		return errAt("op", "unknown op %s (%s)", Quote(c.Op), Choices(c.Op, OpNames(), "tfuzz ops"))
	}
	if rawArgs == nil {
		return errAt("args", "missing")
	}
	if c.Args, err = decodeArgs(rawArgs, op); err != nil {
		return err
	}
	if rawAttrs != nil {
		if c.Attrs, err = decodeAttrs(rawAttrs, op); err != nil {
			return err
		}
	}
	return checkRequiredAttrs(c.Attrs, op)
}

// arity gives the number of args of an op class (-1: one or more) and
// whether they must be tensors.
func arity(class OpClass) (n int, tensorsOnly bool) {
	switch class {
	case ClassBinary:
		return 2, false
	case ClassIndexSelect:
		return 2, true
	case ClassFromLiteral, ClassArange, ClassZeros, ClassFull:
		return 0, true
	case ClassBroadcast, ClassMatmul:
		return 2, true
	case ClassWhere, ClassClamp:
		return 3, false
	case ClassMaskSelect:
		return 2, true
	case ClassCat:
		return -1, true // one or more (matmul.go)
	}
	return 1, true
}

func decodeArgs(data json.RawMessage, op OpInfo) ([]Arg, error) {
	items, err := rawArray(data, "args")
	if err != nil {
		return nil, err
	}
	n, tensorsOnly := arity(op.Class)
	if !arityOK(n, len(items)) {
		return nil, arityError(op, n, len(items))
	}
	args := make([]Arg, len(items))
	scalars := 0
	for i, item := range items {
		field := fmt.Sprintf("args[%d]", i)
		if isJSONNull(item) {
			if !nullableArg(op.Class, i) {
				return nil, errAt(field, "%s takes no null here (only clamp's min and max may be null)", op.Name)
			}
			continue // a bound not given: Arg{}
		}
		fields, err := rawObject(item, field)
		if err != nil {
			return nil, err
		}
		if hasField(fields, "scalar") {
			if tensorsOnly || tensorOnlyArg(op.Class, i) {
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
			err = errAt(join(field, f.Name), "unknown scalar field (a scalar has scalar, kind and host)")
		}
		if err != nil {
			return nil, err
		}
	}
	if len(s.Text) > MaxLiteralBytes { // a number written in a program: parsing it grows with the text
		return nil, errAt(join(field, "scalar"), "a scalar of %d bytes is over the limit of %d KiB", len(s.Text), MaxLiteralBytes>>10)
	}
	if s.Host != "" && !contains(HostTypes, s.Host) {
		return nil, errAt(join(field, "host"), "unknown host type %s (%s)", Quote(s.Host), Choices(s.Host, HostTypes, ""))
	}
	switch s.Kind {
	case ScalarFloat:
		if _, err := ParseFloatText(s.Text); err != nil {
			return nil, errAt(join(field, "scalar"), "%v", err)
		}
	case ScalarInt:
		if _, ok := parseBigInt(s.Text); !ok {
			return nil, errAt(join(field, "scalar"), "%s is not an integer", Quote(s.Text))
		}
	case ScalarBool:
		if s.Text != "true" && s.Text != "false" {
			return nil, errAt(join(field, "scalar"), "%s is not true or false", Quote(s.Text))
		}
	case ScalarComplex:
		if _, err := ParseComplexText(s.Text); err != nil {
			return nil, errAt(join(field, "scalar"), "%v", err)
		}
	case "":
		return nil, errAt(join(field, "kind"), "missing (float, int, bool or complex)")
	default:
		return nil, errAt(join(field, "kind"), "unknown scalar kind %s (float, int, bool or complex)", Quote(string(s.Kind)))
	}
	return s, nil
}

// decodeTensor reads {"dtype", "shape", "data"}; "?" elements are allowed in outcomes only.
func decodeTensor(fields []RawField, field string, allowUnspecified bool) (*Tensor, error) {
	var rawDType, rawShape, rawData, rawView json.RawMessage
	for _, f := range fields {
		switch f.Name {
		case "dtype":
			rawDType = f.Value
		case "shape":
			rawShape = f.Value
		case "data":
			rawData = f.Value
		case "view":
			if allowUnspecified {
				return nil, errAt(join(field, f.Name), "a view is an input: outcomes are written contiguous")
			}
			rawView = f.Value
		default:
			return nil, errAt(join(field, f.Name), "unknown tensor field (a tensor has dtype, shape, data and view; a scalar has scalar and kind)")
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
	if !isJSON(rawData, '[') {
		return nil, errAt(join(field, "data"), "want an array, got %s", preview(rawData))
	}
	var view *View
	storage := shape
	if rawView != nil {
		if view, err = decodeView(rawView, field); err != nil {
			return nil, err
		}
		storage = view.Base
	}
	if n, have := NumElements(storage), countItems(rawData); have != n {
		if view != nil {
			return nil, errAt(join(field, "data"), "has %d elements, view.base %v needs %d", have, storage, n)
		}
		return nil, errAt(join(field, "data"), "has %d elements, shape %v needs %d", have, shape, n)
	}
	t := New(d, storage...)
	err = eachItem(rawData, func(i int, item []byte) error {
		if len(item) == 3 && string(item) == `"?"` {
			if !allowUnspecified {
				return errAt(fmt.Sprintf("%s.data[%d]", field, i), `"?" is allowed only in outcomes, not in args`)
			}
			t.SetUnspecified(i)
			return nil
		}
		if err := decodeElement(t, i, item); err != nil {
			return errAt(fmt.Sprintf("%s.data[%d]", field, i), "%v", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if view != nil {
		return applyView(t, view, shape, field)
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

// decodeElement reads element i of t from its JSON text; the caller adds
// the field to an error (building it for every element would cost an
// allocation each).
func decodeElement(t *Tensor, i int, raw json.RawMessage) error {
	d := t.DType
	text := string(raw)
	switch {
	case d == Bool:
		if text != "true" && text != "false" {
			return fmt.Errorf("want true or false, got %s", preview(raw))
		}
		t.SetBool(i, text == "true")
	case d.IsSigned():
		v, err := strconv.ParseInt(text, 10, 64)
		if err != nil || v < d.MinInt() || v > d.MaxInt() {
			return fmt.Errorf("want an integer in %s range, got %s", d, preview(raw))
		}
		t.SetInt(i, v)
	case d.IsUnsigned():
		v, err := strconv.ParseUint(text, 10, 64)
		if err != nil || v > d.MaxUint() {
			return fmt.Errorf("want an integer in %s range, got %s", d, preview(raw))
		}
		t.SetUint(i, v)
	case d.IsFloat():
		v, err := floatElement(raw)
		if err != nil {
			return err
		}
		t.SetFloat(i, v)
	default: // complex
		if !isJSON(raw, '[') || countItems(raw) != 2 {
			return fmt.Errorf("want [re, im] as two float strings, got %s", preview(raw))
		}
		var parts [2]float64
		err := eachItem(raw, func(k int, part []byte) error {
			v, err := floatElement(part)
			if err != nil {
				return fmt.Errorf("[%d]: %w", k, err)
			}
			parts[k] = v
			return nil
		})
		if err != nil {
			return err
		}
		t.SetComplex(i, complex(parts[0], parts[1]))
	}
	return nil
}

func floatElement(raw json.RawMessage) (float64, error) {
	if !isJSON(raw, '"') {
		return 0, fmt.Errorf("floats are JSON strings (\"0.5\", \"nan\"), got %s", preview(raw))
	}
	return ParseFloatText(unquoteKey(bytes.TrimSpace(raw)))
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
		if !op.takesAttr(f.Name) {
			return a, errAt(field, "%s", op.noAttr(f.Name))
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
		case "keepdim", "descending", "stable":
			v, err := rawBool(f.Value, field)
			if err != nil {
				return a, err
			}
			a.setBool(f.Name, v)
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
				return a, errAt(field, "want \"cast\" or \"convert\", got %s", Quote(s))
			}
			a.Mode = s
		case "literal", "start", "end", "value":
			s, err := rawString(f.Value, field)
			if err != nil {
				return a, err
			}
			if len(s) > MaxLiteralBytes {
				return a, errAt(field, "a literal of %d bytes is over the limit of %d KiB", len(s), MaxLiteralBytes>>10)
			}
			switch f.Name {
			case "literal":
				a.Literal = &s
			case "start":
				a.Start = &s
			case "value":
				a.Value = &s
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
	for _, spec := range op.Attrs() {
		if spec.Required && !a.has(spec.Name) {
			return errAt("attrs."+spec.Name, "%s needs attr %s (%s: %s)", op.Name, spec.Name, spec.Type, spec.Doc)
		}
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
			return nil, errAt(pf, "unknown profile %s (%s)", Quote(f.Name), Choices(f.Name, Profiles, ""))
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
	err := checkJSON(data)
	var o Outcome
	if err == nil {
		o, err = decodeOutcome(data, "")
	}
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
				return o, errAt(ff+".class", "unknown error class %s (%s)", Quote(e.Class), Choices(e.Class, errorClassNames(), ""))
			}
			o.Class, o.msg = ErrorClass(e.Class), textMessage(e.Message)
		case "panic", "unsupported":
			var e struct {
				Message string `json:"message"`
			}
			if err := json.Unmarshal(f.Value, &e); err != nil {
				return o, errAt(ff, "want {\"message\": M}: %v", err)
			}
			o.Form, o.msg = FormPanic, textMessage(e.Message)
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
			return o, errAt(ff, "unknown outcome field (an outcome has one of value, error, panic, crash, unsupported, and warnings, rules)")
		}
		forms++
	}
	if forms != 1 {
		return o, errAt(field, "an outcome has exactly one of value, error, panic, crash, unsupported (got %d)", forms)
	}
	return o, nil
}

// noAttr says that op takes no attr name, and which attrs it takes.
func (op OpInfo) noAttr(name string) string {
	names := op.attrNames()
	takes := "no attrs"
	if len(names) > 0 {
		takes = "only " + strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s takes no attr %s (it takes %s%s)", op.Name, Quote(name), takes, attrHint(name, names))
}

// attrHint names the attr meant by a name other frameworks use ("axis").
func attrHint(name string, valid []string) string {
	aliases := map[string]string{"axis": "dim", "keepdims": "keepdim", "dtype": "to", "to": "dtype"}
	if alias, ok := aliases[name]; ok && contains(valid, alias) {
		return fmt.Sprintf("; %s is called %s here", name, alias)
	}
	if near := nearest(name, valid); near != "" {
		return fmt.Sprintf("; did you mean %s?", near)
	}
	return ""
}

func errorClassNames() []string {
	names := make([]string, len(ErrorClasses))
	for i, c := range ErrorClasses {
		names[i] = string(c)
	}
	return names
}
