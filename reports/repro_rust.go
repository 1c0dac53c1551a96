package reports

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/tfuzz/tfuzz/tensor"
)

// The Rust repro programs (candle, burn, tenferro) share a main that catches
// a panic (the outcome "panic"), prints an Err as an error outcome with a
// class read from its message, and writes floats with Rust's shortest
// round-trip formatting ({:?}), which the case format reads back exactly.
// Where the framework has no spelling of the op, the program does not
// compile (compile_error!), which is what the outcome "unsupported" means.

// rustProgram writes the program for a Rust framework's profile.
func rustProgram(profile string, c *tensor.Case, h header) (src, run, snippet string) {
	var body string
	var steps []*tensor.Case
	if c.IsProgram() {
		steps = stepCases(profile, c)
	}
	switch FrameworkOf(profile) {
	case "candle":
		body = candleBody(c, steps)
		src, run = candleProgram(profile, c, h, body)
	case "burn":
		body = burnBody(c, steps)
		src, run = burnProgram(profile, c, h, body)
	default:
		_, style, _ := strings.Cut(profile, "/")
		body = tenferroBody(c, steps, style)
		src, run = tenferroProgram(profile, c, h, body)
	}
	return src, run, dedent(body)
}

// dedent removes the four spaces of a function body and the trailing newline.
func dedent(body string) string {
	lines := strings.Split(strings.TrimRight(body, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimPrefix(l, "    ")
	}
	return strings.Join(lines, "\n")
}

// cargoRun is how a profile's build is run: debug profiles without --release.
func cargoRun(profile string) string {
	if strings.HasSuffix(profile, "-debug") {
		return "cargo run   (a debug build: integer overflow checks on)"
	}
	return "cargo run --release"
}

// rustMain is the shared main and helpers; case() returns the value line or an Err.
const rustMain = `
fn main() {
    std::panic::set_hook(Box::new(|_| {}));
    let line = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)) {
        Ok(Ok(value)) => value,
        Ok(Err(message)) => error_json(&message),
        Err(p) => {
            let message = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            format!("{{\"panic\": {{\"message\": {}}}}}", json_str(&message))
        }
    };
    println!("{line}");
}

fn json_str(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn float_json(x: f64) -> String {
    if x.is_nan() {
        "\"nan\"".to_string()
    } else if x.is_infinite() {
        (if x > 0.0 { "\"inf\"" } else { "\"-inf\"" }).to_string()
    } else {
        format!("\"{x:?}\"")
    }
}

fn value_json(dtype: &str, shape: &[usize], data: Vec<String>) -> String {
    format!(
        "{{\"value\": {{\"dtype\": \"{dtype}\", \"shape\": {shape:?}, \"data\": [{}]}}}}",
        data.join(", ")
    )
}

/// The case format's error class of an Err, read from its message.
fn error_json(message: &str) -> String {
    let m = message.to_lowercase();
    let has = |words: &[&str]| words.iter().any(|w| m.contains(w));
    let class = if has(&["dtype mismatch", "unexpected dtype", "typemismatch"]) {
        "DTypeMismatch"
    } else if OP.split('>').any(|o| o == "index_select") && has(&["index-select", "index_select", "indices"]) && has(&["unsupported", "not implemented"]) {
        "IndexDType"
    } else if has(&["division by zero", "divide by zero"]) {
        "ZeroDivision"
    } else if has(&["real value", "cannot be represented"]) {
        "OutOfRange"
    } else if has(&["unsupported", "not implemented", "does not support"]) {
        "UnsupportedDType"
    } else if has(&["shape mismatch", "unexpected rank", "different len", "empty array", "incompatible shapes"]) {
        "ShapeMismatch"
    } else if has(&["invalid index", "out of range", "out of bounds"]) {
        "IndexOutOfRange"
    } else if has(&["empty"]) {
        "EmptyTensor"
    } else {
        "Other"
    };
    format!("{{\"error\": {{\"class\": \"{class}\", \"message\": {}}}}}", json_str(message))
}
`

// rustType is the Rust element type of a dtype ("" for complex).
func rustType(d tensor.DType) string {
	switch d {
	case tensor.Bool:
		return "bool"
	case tensor.F16:
		return "half::f16"
	case tensor.BF16:
		return "half::bf16"
	case tensor.C64, tensor.C128:
		return ""
	}
	return d.String()
}

// rustElement writes element i of t as an exact Rust expression of its type.
func rustElement(t *tensor.Tensor, i int) string {
	d := t.DType
	switch {
	case d == tensor.Bool:
		return strconv.FormatBool(t.Bool(i))
	case d.IsSigned() && t.Int(i) == d.MinInt():
		return d.String() + "::MIN"
	case d.IsInt():
		return t.ElementString(i) + d.String()
	case d == tensor.F16 || d == tensor.BF16:
		return fmt.Sprintf("%s::from_bits(0x%04x)", rustType(d), t.Bits(i))
	}
	return rustFloat(t.Float(i), d.String())
}

// rustFloat writes x exactly as an f32 or f64 expression.
func rustFloat(x float64, typ string) string {
	switch tensor.FormatFloat(x) {
	case "nan":
		return typ + "::NAN"
	case "inf":
		return typ + "::INFINITY"
	case "-inf":
		return typ + "::NEG_INFINITY"
	}
	if s, ok := exactDecimal(x); ok {
		return s + typ
	}
	if typ == "f32" {
		return fmt.Sprintf("f32::from_bits(0x%08x)", tensor.FloatBits(x, tensor.F32))
	}
	return fmt.Sprintf("f64::from_bits(0x%016x)", tensor.FloatBits(x, tensor.F64))
}

// rustElements writes t's elements, row-major, separated by commas.
func rustElements(t *tensor.Tensor) string {
	parts := make([]string, t.Len())
	for i := range parts {
		parts[i] = rustElement(t, i)
	}
	return strings.Join(parts, ", ")
}

// rustScalar writes a host scalar as Rust source would: float literals
// with a point, NaN and infinities as constants of the host type.
func rustScalar(s *tensor.Scalar) string {
	typ := s.Host
	if typ == "" {
		typ = "f64"
	}
	switch s.Kind {
	case tensor.ScalarBool:
		return s.Text
	case tensor.ScalarInt:
		if s.Host != "" {
			return s.Text + s.Host
		}
		return s.Text
	}
	switch strings.TrimPrefix(strings.ToLower(s.Text), "+") {
	case "nan", "-nan":
		return typ + "::NAN"
	case "inf", "infinity":
		return typ + "::INFINITY"
	case "-inf", "-infinity":
		return typ + "::NEG_INFINITY"
	}
	text := s.Text
	if !strings.ContainsAny(text, ".eExX") {
		text += ".0"
	}
	if strings.Contains(strings.ToLower(text), "0x") {
		return rustFloat(s.Float(), typ)
	}
	if s.Host != "" {
		return text + s.Host
	}
	return text
}

// rustShape writes a shape as a Rust tuple: "()", "(3,)", "(2, 3)".
func rustShape(shape []int) string { return pyShape(shape) }

// rustDim writes a dim attr; negative dims count from the end (D::Minus).
func rustDim(d int) string {
	if d < 0 {
		return fmt.Sprintf("D::Minus(%d)", -d)
	}
	return strconv.Itoa(d)
}

// compileError is the body of a program whose framework has no spelling.
func compileError(why string) string {
	return "    compile_error!(" + strconv.Quote(why) + ");\n"
}

var (
	rustLiteralWords = regexp.MustCompile(`\b(true|false)\b|([0-9.])_?(i8|i16|i32|i64|i128|isize|u8|u16|u32|u64|u128|usize|f32|f64)\b`)
	rustLiteralChars = regexp.MustCompile(`^[-+0-9.eE\[\], _]*$`)
)

// rustLiteral reports whether text is a Rust literal of numbers, bools and
// arrays, and nothing else: a case file is input from anyone, and its
// literal is pasted into a program the user runs.
func rustLiteral(text string) bool {
	return rustLiteralChars.MatchString(rustLiteralWords.ReplaceAllString(text, "$2"))
}
