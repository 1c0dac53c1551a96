package tensor

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// oracleDir holds the outcomes recorded from real frameworks.
const oracleDir = "../corpus/oracle"

func TestRoundTripOracle(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(oracleDir, "*.jsonl"))
	if len(files) == 0 {
		t.Fatalf("no recorded outcomes in %s", oracleDir)
	}
	for _, f := range files {
		cases, err := ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			line := EncodeCase(c)
			back, err := DecodeCase(line)
			if err != nil {
				t.Fatalf("%s: re-decoding %s: %v", f, c.ID, err)
			}
			if again := EncodeCase(back); !bytes.Equal(again, line) {
				t.Fatalf("%s: %s does not round-trip:\n%s\n%s", f, c.ID, line, again)
			}
			assertSameArgs(t, c, back)
		}
	}
}

func assertSameArgs(t *testing.T, a, b *Case) {
	t.Helper()
	for i := range a.Args {
		if a.Args[i].Tensor == nil {
			continue
		}
		x, y := a.Args[i].Tensor, b.Args[i].Tensor
		for j := range x.Data {
			if x.Data[j] != y.Data[j] {
				t.Fatalf("%s: args[%d] word %d: %#x != %#x", a.ID, i, j, x.Data[j], y.Data[j])
			}
		}
	}
}

func TestRoundTripExactValues(t *testing.T) {
	line := `{"op": "add", "args": [` +
		`{"dtype": "f64", "shape": [6], "data": ["-0.0", "5e-324", "nan", "-inf", "0x1.8p+1", "0.1"]}, ` +
		`{"dtype": "u64", "shape": [2], "data": [18446744073709551615, 0]}], "attrs": {}}`
	c, err := DecodeCase([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	f := c.Args[0].Tensor
	if b := math.Float64bits(f.Float(0)); b != 1<<63 {
		t.Errorf("-0.0 decoded as bits %#x", b)
	}
	if f.Float(1) != 5e-324 || !math.IsNaN(f.Float(2)) || f.Float(4) != 3 {
		t.Errorf("decoded %v", f)
	}
	if u := c.Args[1].Tensor.Uint(0); u != math.MaxUint64 {
		t.Errorf("u64 max decoded as %d", u)
	}
	out := string(EncodeCase(c))
	for _, want := range []string{`"-0.0"`, `"5e-324"`, `"nan"`, `"-inf"`, `"3.0"`, `18446744073709551615`} {
		if !strings.Contains(out, want) {
			t.Errorf("encoded case lacks %s: %s", want, out)
		}
	}
}

func TestRoundTripHalfAndComplex(t *testing.T) {
	line := `{"op": "neg", "args": [{"dtype": "c64", "shape": [2], "data": [["0.1", "-0.0"], ["inf", "nan"]]}], ` +
		`"attrs": {}, "expect": {"numpy": {"value": {"dtype": "bf16", "shape": [3], "data": ["0.1", "?", "-0.0"]}, "warnings": ["w"]}}, ` +
		`"future_field": {"b": [1, 2]}}`
	c, err := DecodeCase([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Args[0].Tensor.Complex(0); real(got) != float64(float32(0.1)) || math.Signbit(imag(got)) != true {
		t.Errorf("c64 element decoded as %v", got)
	}
	o, _ := c.Expect.Get("numpy")
	if o.Value.Float(0) != 0.10009765625 || !o.Value.IsUnspecified(1) {
		t.Errorf("bf16 outcome decoded as %v", o.Value)
	}
	again, err := DecodeCase(EncodeCase(c))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(EncodeCase(again), EncodeCase(c)) {
		t.Error("not idempotent")
	}
	if len(again.Extra) != 1 || string(again.Extra[0].Value) != `{"b":[1,2]}` {
		t.Errorf("unknown field not preserved: %+v", again.Extra)
	}
}

func TestDecodeErrors(t *testing.T) {
	tensor := func(dt, shape, data string) string {
		return `{"dtype": "` + dt + `", "shape": ` + shape + `, "data": ` + data + `}`
	}
	one := tensor("i64", "[1]", "[1]")
	tests := []struct {
		name, line, field, msg string
	}{
		{"malformed JSON", `{"op": "add", "args": [`, "args", "invalid JSON"},
		{"truncated JSON", `{"op": "add"`, "", "invalid JSON"},
		{"not an object", `[1, 2]`, "", "want an object"},
		{"missing op", `{"args": []}`, "op", "missing"},
		{"unknown op", `{"op": "einsum", "args": []}`, "op", "unknown op"},
		{"unknown dtype", `{"op": "neg", "args": [` + tensor("i128", "[1]", "[1]") + `]}`, "args[0].dtype", "unknown dtype"},
		{"data length", `{"op": "neg", "args": [` + tensor("i64", "[2]", "[1]") + `]}`, "args[0].data", "shape [2] needs 2"},
		{"rank over 8", `{"op": "neg", "args": [` + tensor("i64", "[1,1,1,1,1,1,1,1,1]", "[1]") + `]}`, "args[0].shape", "rank 9"},
		{"too many elements", `{"op": "neg", "args": [` + tensor("u8", "[4096, 4097]", "[]") + `]}`, "args[0].shape", "more than 2^24"},
		{"negative dim", `{"op": "neg", "args": [` + tensor("u8", "[-1]", "[]") + `]}`, "args[0].shape[0]", "non-negative"},
		{"? in args", `{"op": "neg", "args": [` + tensor("i64", "[1]", `["?"]`) + `]}`, "args[0].data[0]", "only in outcomes"},
		{"int out of range", `{"op": "neg", "args": [` + tensor("u8", "[1]", "[256]") + `]}`, "args[0].data[0]", "u8 range"},
		{"float not a string", `{"op": "neg", "args": [` + tensor("f32", "[1]", "[0.5]") + `]}`, "args[0].data[0]", "JSON strings"},
		{"bad float text", `{"op": "neg", "args": [` + tensor("f32", "[1]", `["x"]`) + `]}`, "args[0].data[0]", "not a float"},
		{"int as float", `{"op": "neg", "args": [` + tensor("i32", "[1]", `[1.5]`) + `]}`, "args[0].data[0]", "i32 range"},
		{"arity", `{"op": "add", "args": [` + one + `]}`, "args", "takes 2 args"},
		{"scalar only", `{"op": "add", "args": [{"scalar": "1", "kind": "int"}, {"scalar": "1", "kind": "int"}]}`, "args", "at least one tensor"},
		{"scalar kind", `{"op": "add", "args": [` + one + `, {"scalar": "1", "kind": "quaternion"}]}`, "args[1].kind", "unknown scalar kind"},
		{"scalar text", `{"op": "add", "args": [` + one + `, {"scalar": "1x", "kind": "int"}]}`, "args[1].scalar", "not an integer"},
		{"unknown attr", `{"op": "neg", "args": [` + one + `], "attrs": {"dim": 0}}`, "attrs.dim", "takes no attr"},
		{"valid attrs listed", `{"op": "sum", "args": [` + one + `], "attrs": {"axis": 0}}`, "attrs.axis", `sum takes no attr "axis" (it takes only dim, keepdim, tolerance_ulps, dtype; axis is called dim here)`},
		{"host type", `{"op": "add", "args": [` + one + `, {"scalar": "1", "kind": "int", "host": "i32; evil()"}]}`, "args[1].host", "unknown host type"},
		{"cast without to", `{"op": "cast", "args": [` + one + `]}`, "attrs.to", "cast needs attr to (dtype: the target dtype)"},
		{"bad cast target", `{"op": "cast", "args": [` + one + `], "attrs": {"to": "f8"}}`, "attrs.to", "unknown dtype"},
		{"unknown profile", `{"op": "neg", "args": [` + one + `], "expect": {"torch": {"value": ` + one + `}}}`, "expect.torch", "unknown profile"},
		{"two forms", `{"op": "neg", "args": [` + one + `], "expect": {"numpy": {"value": ` + one + `, "crash": {"signal": "SIGFPE"}}}}`, "expect.numpy", "exactly one"},
		{"error class", `{"op": "neg", "args": [` + one + `], "expect": {"numpy": {"error": {"class": "Oops", "message": ""}}}}`, "expect.numpy.error.class", "unknown error class"},
		{"duplicate field", `{"op": "neg", "op": "abs", "args": []}`, "op", "duplicate"},
		{"trailing data", `{"op": "neg", "args": []} {}`, "", "trailing data"},
		{"bad JSON deep inside names the top-level field", `{"op": "neg", "args": [{"dtype": "i8", "shape": [1], "data": [1,]}]}`, "args", "invalid JSON"},
		{"complex part", `{"op": "neg", "args": [` + tensor("c64", "[1]", `[["1", 2]]`) + `]}`, "args[0].data[0]", "[1]: floats are JSON strings"},
		{"complex pair", `{"op": "neg", "args": [` + tensor("c64", "[1]", `[["1"]]`) + `]}`, "args[0].data[0]", "want [re, im]"},
		{"literal over the limit", `{"op": "from_literal", "args": [], "attrs": {"literal": "` + strings.Repeat("[", MaxLiteralBytes+1) + `"}}`,
			"attrs.literal", "over the limit of 64 KiB"},
		// parsing an integer's text is quadratic: a scalar of a million digits took 40 s
		{"scalar over the limit", `{"op": "add", "args": [` + one + `, {"scalar": "` + strings.Repeat("9", MaxLiteralBytes+1) + `", "kind": "int"}]}`,
			"args[1].scalar", "a scalar of 65537 bytes is over the limit of 64 KiB"},
		// a name of megabytes is quoted by its start, not echoed in full
		{"a long dtype", `{"op": "neg", "args": [` + tensor(strings.Repeat("x", 100000), "[1]", "[1]") + `]}`, "args[0].dtype",
			`unknown dtype "` + strings.Repeat("x", 60) + `"... (100000 bytes) (valid: bool,`},
		{"a long float text", `{"op": "neg", "args": [` + tensor("f32", "[1]", `["`+strings.Repeat("7", 100000)+`x"]`) + `]}`, "args[0].data[0]",
			`"` + strings.Repeat("7", 60) + `"... (100001 bytes) is not a float`},
		{"a long profile", `{"op": "neg", "args": [` + one + `], "expect": {"` + strings.Repeat("p", 100000) + `": {"value": ` + one + `}}}`,
			"expect." + strings.Repeat("p", 93) + "...", `unknown profile "` + strings.Repeat("p", 60) + `"... (100000 bytes) (valid: pytorch/cpu,`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeCase([]byte(tt.line))
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("got %v, want a *DecodeError", err)
			}
			if de.Field != tt.field || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("got field %.300q, error %.300q; want field %.300q containing %.300q", de.Field, err, tt.field, tt.msg)
			}
			if n := len(err.Error()); n > 1000 {
				t.Errorf("a message of %d bytes", n)
			}
		})
	}
}

func TestReaderRefusesOverlongLines(t *testing.T) {
	line := `{"op": "neg", "args": [{"dtype": "i8", "shape": [1], "data": [1]}], "source": "` + strings.Repeat("x", MaxLineBytes) + `"}`
	r := NewReader(strings.NewReader("\n"+line+"\n"), "big.jsonl")
	_, err := r.Next()
	if err == nil || !strings.Contains(err.Error(), "big.jsonl:2: line longer than the limit of 64 MiB") {
		t.Fatalf("got %v, want the line named and the limit", err)
	}
}

// TestDecodeMemoryIsLinear: decoding a line of n elements allocates about
// the tensor (8 bytes an element) and not a copy of the line per nesting
// level or a slice header per element (the codec once took 1.8 GB for a
// 32 MB line).
func TestDecodeMemoryIsLinear(t *testing.T) {
	const n = 1 << 20
	var b strings.Builder
	b.WriteString(`{"op": "add", "args": [{"dtype": "i8", "shape": [1048576], "data": [`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("-1")
	}
	b.WriteString(`]}, {"scalar": "1", "kind": "int"}]}`)
	line := []byte(b.String())
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	c, err := DecodeCase(line)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Args[0].Tensor.Int(n - 1); got != -1 {
		t.Fatalf("last element %d, want -1", got)
	}
	allocated := after.TotalAlloc - before.TotalAlloc
	if limit := uint64(2 * 8 * n); allocated > limit {
		t.Errorf("decoding %d elements (a %d-byte line) allocated %d bytes, want at most %d", n, len(line), allocated, limit)
	}
}

// TestReaderSkipsAByteOrderMark: a file an editor saved with a UTF-8 BOM
// and CRLF line ends reads as without them; a BOM on a later line is an error.
func TestReaderSkipsAByteOrderMark(t *testing.T) {
	good := `{"op": "neg", "args": [{"dtype": "i8", "shape": [], "data": [1]}]}`
	r := NewReader(strings.NewReader("\xef\xbb\xbf"+good+"\r\n"+good+"\r\n"), "bom.jsonl")
	for i := 0; i < 2; i++ {
		if c, err := r.Next(); err != nil || c.Op != "neg" {
			t.Fatalf("case %d: %v, %v", i+1, c, err)
		}
	}
	r = NewReader(strings.NewReader(good+"\n\xef\xbb\xbf"+good+"\n"), "bom.jsonl")
	r.Next()
	if _, err := r.Next(); err == nil || !strings.Contains(err.Error(), "bom.jsonl:2: invalid JSON") {
		t.Errorf("a BOM on line 2: got %v", err)
	}
}

func TestReaderNamesFileAndLine(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bad.jsonl")
	good := `{"op": "neg", "args": [{"dtype": "i8", "shape": [], "data": [1]}]}`
	os.WriteFile(path, []byte(good+"\n\n"+`{"op": "neg", "args": [{"dtype": "i8", "shape": [], "data": [1000]}]}`+"\n"), 0o644)
	_, err := ReadFile(path)
	if err == nil || !strings.HasPrefix(err.Error(), path+":3: args[0].data[0]: ") {
		t.Fatalf("got %v", err)
	}
}
