package reports

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tfuzz/tfuzz/tensor"
)

// tenferroProgram writes a tenferro 0.8 main in the profile's style: a
// TracedTensor graph evaluated at the end (traced), an eager session
// (eager), or the Tensor methods on an engine (direct). Inputs are built
// with from_vec_col_major, so the row-major case data is written in
// column-major order.
func tenferroProgram(profile string, c *tensor.Case, h header, body string) (string, string) {
	run := "cargo run --release"
	h.run = run
	h.notes = append(h.notes, `Cargo.toml [dependencies]: tenferro-runtime = "=0.8"`,
		"The spelling follows tenferro's API as seed 001 shows it; it is not compiled by tfuzz's CI.")
	var b strings.Builder
	b.WriteString(h.lines("// "))
	b.WriteString("#![allow(unused_imports)]\nuse tenferro_runtime::prelude::*;\n\n")
	fmt.Fprintf(&b, "const OP: &str = %s;\n\n", strconv.Quote(opConst(c)))
	b.WriteString("fn run() -> Result<String, String> {\n    case().map_err(|e| format!(\"{e}\"))\n}\n\n")
	b.WriteString("fn case() -> Result<String, Box<dyn std::error::Error>> {\n    let mut eng = CpuEngine::serial();\n")
	b.WriteString(body)
	b.WriteString("}\n")
	b.WriteString(tenferroValue)
	b.WriteString(rustMain)
	return b.String(), run
}

const tenferroValue = `
fn value(t: &Tensor) -> Result<String, Box<dyn std::error::Error>> {
    // shape and column-major data back to the case format's row-major order
    let shape: Vec<usize> = t.shape().to_vec();
    let n: usize = shape.iter().product();
    let row_major = |k: usize| {
        let (mut rest, mut idx, mut stride) = (k, 0usize, 1usize);
        let mut col = vec![0usize; shape.len()];
        for d in (0..shape.len()).rev() {
            col[d] = rest % shape[d];
            rest /= shape[d];
        }
        for d in 0..shape.len() {
            idx += col[d] * stride;
            stride *= shape[d];
        }
        idx
    };
    let name = format!("{:?}", t.dtype()).to_lowercase();
    let data: Vec<String> = match name.as_str() {
        "f32" | "f64" => { let v = t.to_vec_col_major::<f64>()?; (0..n).map(|k| float_json(v[row_major(k)])).collect() }
        "bool" => { let v = t.to_vec_col_major::<bool>()?; (0..n).map(|k| v[row_major(k)].to_string()).collect() }
        _ => { let v = t.to_vec_col_major::<i64>()?; (0..n).map(|k| v[row_major(k)].to_string()).collect() }
    };
    let name = match name.as_str() { "c32" => "c64".to_string(), "c64" => "c128".to_string(), n => n.to_string() };
    Ok(value_json(&name, &shape, data))
}
`

var tenferroTypes = map[tensor.DType]bool{tensor.F32: true, tensor.F64: true, tensor.I32: true, tensor.I64: true, tensor.Bool: true}

// colMajor lists t's elements in column-major order.
func colMajor(t *tensor.Tensor) string {
	n := t.Len()
	strides := tensor.ContiguousStrides(t.Shape)
	parts := make([]string, n)
	for k := 0; k < n; k++ {
		// the k-th column-major position holds the row-major element i
		rest, i := k, 0
		for d := 0; d < t.Rank(); d++ {
			i += (rest % t.Shape[d]) * strides[d]
			rest /= t.Shape[d]
		}
		parts[k] = rustElement(t, i)
	}
	return strings.Join(parts, ", ")
}

var tenferroOps = map[string]string{"add": "+", "sub": "-", "mul": "*", "div": "/"}

func tenferroBody(c *tensor.Case, steps []*tensor.Case, style string) string {
	ctor := "Tensor"
	if style == "traced" {
		ctor = "TracedTensor"
	}
	input := func(name string, t *tensor.Tensor) (string, string) {
		if t.View != nil {
			return "", "tfuzz does not state tenferro's view ops (permute, broadcast, slicing)"
		}
		if !tenferroTypes[t.DType] {
			return "", "tenferro has no " + t.DType.String() + " host type here"
		}
		dims := make([]string, t.Rank())
		for i, d := range t.Shape {
			dims[i] = strconv.Itoa(d)
		}
		return fmt.Sprintf("    let %s = %s::from_vec_col_major(vec![%s], vec![%s] as Vec<%s>)?;\n", name, ctor,
			strings.Join(dims, ", "), colMajor(t), rustType(t.DType)), ""
	}
	if c.IsProgram() { // a traced program is one graph, evaluated once at the end
		return rustProgramBody(c, steps, input, func(n string) string { return n + ".clone()" },
			func(sc *tensor.Case, args []string) (string, string) { return tenferroOp(sc, args, style) },
			func(last string) string {
				if style == "traced" {
					return "    let out = eval(&" + last + ")?;\n    value(&out)\n"
				}
				return "    value(&" + last + ")\n"
			})
	}
	var b strings.Builder
	var args []string
	for k, a := range c.Args {
		if a.IsNull() {
			args = append(args, "None")
			continue
		}
		if a.Scalar != nil {
			args = append(args, rustScalar(a.Scalar))
			continue
		}
		lines, why := input(argName(k), a.Tensor)
		if why != "" {
			return compileError(why)
		}
		b.WriteString(lines)
		args = append(args, argName(k))
	}
	expr, why := tenferroOp(c, args, style)
	if why != "" {
		return b.String() + compileError(why)
	}
	if style == "traced" {
		expr = "eval(&" + expr + ")?"
	}
	return b.String() + "    let out = " + expr + ";\n    value(&out)\n"
}

func tenferroOp(c *tensor.Case, args []string, style string) (string, string) {
	op, _ := tensor.LookupOp(c.Op)
	switch op.Class {
	case tensor.ClassBinary:
		if c.Args[0].Scalar != nil {
			return "", "tenferro has no scalar operands (only scale_real on the right of a multiplication)"
		}
		if c.Args[1].Scalar != nil {
			if c.Op == "mul" && c.Args[1].Scalar.Kind == tensor.ScalarFloat {
				if style == "traced" {
					return args[0] + ".scale_real(" + args[1] + ")?", ""
				}
				return args[0] + ".scale_real(" + args[1] + ", &mut eng)?", ""
			}
			return "", "tenferro has no scalar " + c.Op
		}
		sym, ok := tenferroOps[c.Op]
		if !ok {
			return "", "tfuzz has no tenferro spelling of " + c.Op
		}
		switch style {
		case "traced":
			return "(&" + args[0] + " " + sym + " &" + args[1] + ")?", ""
		case "eager":
			return "EagerRuntime::new().with_eager_session(&mut eng, |s| s." + c.Op + "(&" + args[0] + ", &" + args[1] + "))?", ""
		}
		return args[0] + "." + c.Op + "(&" + args[1] + ", &mut eng)?", ""
	case tensor.ClassCast:
		to := c.Attrs.To
		if !tenferroTypes[to] && to != tensor.C64 && to != tensor.C128 {
			return "", "tenferro has no " + to.String() + " dtype"
		}
		method := "cast"
		if c.Attrs.Mode == "convert" {
			method = "convert"
		}
		if style == "traced" {
			return args[0] + "." + method + "(DType::" + rustName(to) + ")?", ""
		}
		return args[0] + "." + method + "(DType::" + rustName(to) + ", &mut eng)?", ""
	case tensor.ClassFromVec:
		dims := make([]string, len(c.Attrs.Shape))
		for i, d := range c.Attrs.Shape {
			dims[i] = strconv.Itoa(d)
		}
		return args[0] + ".reshape(&[" + strings.Join(dims, ", ") + "])?", ""
	}
	return "", "tfuzz has no tenferro spelling of " + c.Op
}

// rustName is tenferro's name of a dtype: F32, I64, C32 (complex of f32).
func rustName(d tensor.DType) string {
	switch d {
	case tensor.C64:
		return "C32"
	case tensor.C128:
		return "C64"
	case tensor.Bool:
		return "Bool"
	}
	return strings.ToUpper(d.String())
}
