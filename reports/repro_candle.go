package reports

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tfuzz/tfuzz/tensor"
)

// candleProgram writes a candle 0.11 main: Tensor::new(&[T], &dev) for the
// inputs (the case format's host-data convention), the op as candle spells
// it, and the result read back with to_vec1 in its own element type.
func candleProgram(profile string, c *tensor.Case, h header, body string) (string, string) {
	metal := strings.HasSuffix(profile, "/metal")
	run := cargoRun(profile)
	h.run = run
	deps := `candle-core = "=0.11.0"`
	dev := "Device::Cpu"
	if metal {
		deps = `candle-core = { version = "=0.11.0", features = ["metal"] }`
		dev = "Device::new_metal(0)?"
		h.notes = append(h.notes, "Run it on a Mac with Metal; debug and release builds behave alike there.")
	}
	h.notes = append(h.notes, "Cargo.toml [dependencies]: "+deps+`, half = "2"`)
	var b strings.Builder
	b.WriteString(h.lines("// "))
	b.WriteString("#![allow(unused_imports, unused_parens)]\nuse candle_core::{DType, Device, Tensor, D};\n\n")
	fmt.Fprintf(&b, "const OP: &str = %s;\n\n", strconv.Quote(opConst(c)))
	b.WriteString("fn run() -> Result<String, String> {\n    case().map_err(|e| e.to_string())\n}\n\n")
	b.WriteString("fn case() -> candle_core::Result<String> {\n")
	fmt.Fprintf(&b, "    let dev = %s;\n", dev)
	b.WriteString(body)
	b.WriteString("}\n")
	b.WriteString(candleValue)
	b.WriteString(rustMain)
	return b.String(), run
}

// candleValue reads a tensor back in its own element type.
const candleValue = `
fn value(t: &Tensor) -> candle_core::Result<String> {
    let flat = t.flatten_all()?;
    let ints = |v: Vec<i64>| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let floats = |v: Vec<f64>| v.into_iter().map(float_json).collect::<Vec<_>>();
    let (dtype, data) = match t.dtype() {
        DType::U8 => ("u8", ints(flat.to_vec1::<u8>()?.into_iter().map(i64::from).collect())),
        DType::U32 => ("u32", ints(flat.to_vec1::<u32>()?.into_iter().map(i64::from).collect())),
        DType::I16 => ("i16", ints(flat.to_vec1::<i16>()?.into_iter().map(i64::from).collect())),
        DType::I32 => ("i32", ints(flat.to_vec1::<i32>()?.into_iter().map(i64::from).collect())),
        DType::I64 => ("i64", ints(flat.to_vec1::<i64>()?)),
        DType::F16 => ("f16", floats(flat.to_vec1::<half::f16>()?.into_iter().map(|x| x.to_f64()).collect())),
        DType::BF16 => ("bf16", floats(flat.to_vec1::<half::bf16>()?.into_iter().map(|x| x.to_f64()).collect())),
        DType::F32 => ("f32", floats(flat.to_vec1::<f32>()?.into_iter().map(f64::from).collect())),
        DType::F64 => ("f64", floats(flat.to_vec1::<f64>()?)),
        d => candle_core::bail!("result dtype {d:?} is not in the case format"),
    };
    Ok(value_json(dtype, t.dims(), data))
}
`

var candleOperators = map[string]string{"add": "+", "sub": "-", "mul": "*", "div": "/"}

var candleCompare = map[string]string{"eq": "eq", "ne": "ne", "lt": "lt", "le": "le", "gt": "gt", "ge": "ge"}

var candleUnary = map[string]string{"neg": "neg", "abs": "abs", "sign": "sign", "sqrt": "sqrt", "exp": "exp",
	"floor": "floor", "ceil": "ceil", "round": "round", "square": "sqr"}

// candleTensor builds an input: Tensor::new of the host data, reshaped.
func candleTensor(t *tensor.Tensor) (string, bool) {
	typ := rustType(t.DType)
	if typ == "" {
		return "", false
	}
	switch {
	case t.Rank() == 0:
		return "Tensor::new(" + rustElement(t, 0) + ", &dev)?", true
	case t.Len() == 0:
		s := fmt.Sprintf("Tensor::new(&[0%s; 0], &dev)?", typ)
		if t.DType == tensor.Bool || t.DType.IsFloat() {
			s = fmt.Sprintf("Tensor::new(&[] as &[%s], &dev)?", typ)
		}
		if t.Rank() != 1 {
			s += ".reshape(" + rustShape(t.Shape) + ")?"
		}
		return s, true
	}
	s := "Tensor::new(&[" + rustElements(t) + "], &dev)?"
	if t.Rank() != 1 {
		s += ".reshape(" + rustShape(t.Shape) + ")?"
	}
	return s, true
}

// candleBody writes the inputs and the op (a program's steps, bound in
// steps), ending in the value line.
func candleBody(c *tensor.Case, steps []*tensor.Case) string {
	if c.IsProgram() {
		return rustProgramBody(c, steps, candleInput, func(n string) string { return "&" + n }, candleOp,
			func(last string) string { return "    value(&" + last + ")\n" })
	}
	var b strings.Builder
	var args []string
	for k, a := range c.Args {
		if a.IsNull() {
			args = append(args, "None")
			continue
		}
		if a.Scalar != nil {
			s := rustScalar(a.Scalar)
			if a.Scalar.Host != "" {
				fmt.Fprintf(&b, "    let s: %s = %s;\n", a.Scalar.Host, s)
				s = "s"
			}
			args = append(args, s)
			continue
		}
		name := argName(k)
		if c.Op == "index_select" && k == 1 {
			name = "ids"
		}
		lines, why := candleInput(name, a.Tensor)
		if why != "" {
			return b.String() + compileError(why)
		}
		b.WriteString(lines)
		args = append(args, "&"+name)
	}
	expr, why := candleOp(c, args)
	if why != "" {
		return b.String() + compileError(why)
	}
	if c.Op == "to_host" {
		fmt.Fprintf(&b, "    %s\n", expr)
		return b.String()
	}
	fmt.Fprintf(&b, "    let out = %s;\n    value(&out)\n", expr)
	return b.String()
}

// candleOp spells the op on the arguments (tensors as &name, scalars as
// literals), or says why candle has none.
func candleOp(c *tensor.Case, args []string) (expr, why string) {
	op, _ := tensor.LookupOp(c.Op)
	at := c.Attrs
	recv := func(i int) string { return strings.TrimPrefix(args[i], "&") }
	dim := func() string {
		if at.Dim == nil {
			return "0"
		}
		return rustDim(*at.Dim)
	}
	if expr, why, ok := candleNewOp(c, args); ok { // repro_newops.go
		return expr, why
	}
	if expr, why, ok := candleSortOp(c, args); ok { // repro_sort.go
		return expr, why
	}
	switch op.Class {
	case tensor.ClassBinary:
		x, y := args[0], args[1]
		if sym, ok := candleOperators[c.Op]; ok {
			return "(" + x + " " + sym + " " + y + ")?", ""
		}
		if c.Args[0].Scalar != nil {
			return "", "candle has no " + c.Op + " with a scalar on the left"
		}
		switch c.Op {
		case "maximum", "minimum":
			return recv(0) + "." + c.Op + "(" + y + ")?", ""
		case "pow":
			if c.Args[1].Scalar != nil {
				return recv(0) + ".powf(" + y + ")?", ""
			}
			return recv(0) + ".pow(" + y + ")?", ""
		}
		if m, ok := candleCompare[c.Op]; ok {
			return recv(0) + "." + m + "(" + y + ")?", ""
		}
		return "", "candle 0.11 has no " + c.Op
	case tensor.ClassUnary:
		if m, ok := candleUnary[c.Op]; ok {
			return recv(0) + "." + m + "()?", ""
		}
		return "", "candle 0.11 has no " + c.Op
	case tensor.ClassCast:
		if at.Mode == "convert" {
			return "", "candle has only to_dtype (lossy); there is no checked convert"
		}
		if rustType(at.To) == "" || at.To == tensor.Bool || at.To == tensor.I8 || at.To == tensor.U16 || at.To == tensor.U64 {
			return "", "candle has no " + at.To.String() + " dtype"
		}
		return recv(0) + ".to_dtype(DType::" + strings.ToUpper(at.To.String()) + ")?", ""
	case tensor.ClassReduce:
		return candleReduce(c, recv(0))
	case tensor.ClassCumsum:
		return recv(0) + ".cumsum(" + dim() + ")?", ""
	case tensor.ClassIndexSelect:
		return recv(0) + ".index_select(" + args[1] + ", " + dim() + ")?", ""
	case tensor.ClassFromLiteral:
		lit := strings.TrimSpace(*at.Literal)
		if !rustLiteral(lit) {
			return "", "not a Rust literal: " + lit
		}
		if strings.HasPrefix(lit, "[") {
			return "Tensor::new(&" + lit + ", &dev)?", ""
		}
		return "Tensor::new(" + lit + ", &dev)?", ""
	case tensor.ClassArange:
		start := "0"
		if at.Start != nil {
			start = *at.Start
		}
		if !rustLiteral(start) || !rustLiteral(*at.End) {
			return "", "not Rust literals: " + start + ", " + *at.End
		}
		return "Tensor::arange(" + start + ", " + *at.End + ", &dev)?", ""
	case tensor.ClassZeros:
		if !at.DType.Valid() {
			return "", "candle has no default dtype: Tensor::zeros needs a DType"
		}
		return "Tensor::zeros(" + rustShape(at.Shape) + ", DType::" + strings.ToUpper(at.DType.String()) + ", &dev)?", ""
	case tensor.ClassFromVec:
		v := c.Args[0].Tensor
		return "Tensor::from_vec(vec![" + rustElements(v) + "] as Vec<" + rustType(v.DType) + ">, " + rustShape(at.Shape) + ", &dev)?", ""
	case tensor.ClassToHost:
		return candleToHost(c, recv(0))
	}
	return "", "tfuzz has no candle spelling of " + c.Op
}

func candleReduce(c *tensor.Case, x string) (string, string) {
	at, op := c.Attrs, c.Op
	if op == "prod" {
		return "", "candle 0.11 has no prod"
	}
	if at.Dim == nil {
		switch {
		case op == "argmax" || op == "argmin":
			return "", "candle has no " + op + " over all elements"
		case at.KeepDim():
			if op == "max" || op == "min" {
				return "", "candle has no keepdim form of " + op + "_all"
			}
			dims := make([]string, c.Args[0].Tensor.Rank())
			for i := range dims {
				dims[i] = strconv.Itoa(i)
			}
			return x + "." + op + "_keepdim(vec![" + strings.Join(dims, ", ") + "] as Vec<usize>)?", ""
		}
		return x + "." + op + "_all()?", ""
	}
	suffix := ""
	if at.KeepDim() {
		suffix = "_keepdim"
	}
	return x + "." + op + suffix + "(" + rustDim(*at.Dim) + ")?", ""
}

// candleToHost reads back with to_scalar / to_vecN::<T>: checked, no conversion.
func candleToHost(c *tensor.Case, x string) (string, string) {
	d := c.Attrs.DType
	typ := rustType(d)
	if typ == "" || !candleHostTypes[d] {
		return "", "candle has no " + d.String() + " element type"
	}
	rank := c.Args[0].Tensor.Rank()
	if c.Attrs.Rank != nil {
		rank = *c.Attrs.Rank
	}
	conv := "i64::from(x)"
	elem := "x.to_string()"
	if d.IsFloat() {
		conv = "f64::from(x)"
		if d == tensor.F16 || d == tensor.BF16 {
			conv = "x.to_f64()"
		}
		elem = "float_json(x)"
	}
	read := map[int]string{
		0: "vec![" + x + ".to_scalar::<" + typ + ">()?]",
		1: x + ".to_vec1::<" + typ + ">()?",
		2: x + ".to_vec2::<" + typ + ">()?.concat()",
		3: x + ".to_vec3::<" + typ + ">()?.concat().concat()",
	}[rank]
	if read == "" {
		return "", fmt.Sprintf("candle has no to_vec%d", rank)
	}
	return fmt.Sprintf("let host: Vec<%s> = %s;\n    let data = host.into_iter().map(|x| { let x = %s; %s }).collect();\n    Ok(value_json(%q, %s.dims(), data))",
		typ, read, conv, elem, d.String(), x), ""
}

var candleHostTypes = map[tensor.DType]bool{tensor.U8: true, tensor.U32: true, tensor.I16: true, tensor.I32: true,
	tensor.I64: true, tensor.F16: true, tensor.BF16: true, tensor.F32: true, tensor.F64: true}
