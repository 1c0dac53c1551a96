package reports

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tfuzz/tfuzz/tensor"
)

// burnProgram writes a burn 0.22 main: Tensor::<B, D, K>::from_data of a
// TensorData of the host values (the case format's convention; the device
// picks the stored dtype), the op as burn's tensor API spells it, and the
// result read back from into_data() in its stored dtype. burn reports most
// misuse by panicking, which the main catches.
func burnProgram(profile string, c *tensor.Case, h header, body string) (string, string) {
	run := cargoRun(profile)
	h.run = run
	backend, feature := "burn::backend::Flex", "flex"
	if strings.HasSuffix(profile, "/ndarray") {
		backend, feature = "burn::backend::NdArray", "ndarray"
	}
	h.notes = append(h.notes, fmt.Sprintf(`Cargo.toml [dependencies]: burn = { version = "=0.22", features = [%q] }`, feature),
		"The spelling follows burn's tensor API as the seeds and source facts show it; it is not compiled by tfuzz's CI.")
	var b strings.Builder
	b.WriteString(h.lines("// "))
	b.WriteString("#![allow(unused_imports)]\nuse burn::tensor::{s, Bool, DType, FloatDType, Int, IntDType, Tensor, TensorData};\n\n")
	fmt.Fprintf(&b, "type B = %s;\n\nconst OP: &str = %s;\n\n", backend, strconv.Quote(opConst(c)))
	b.WriteString("fn run() -> Result<String, String> {\n    let device = Default::default();\n")
	b.WriteString(body)
	b.WriteString("}\n")
	b.WriteString(burnValue)
	b.WriteString(rustMain)
	return b.String(), run
}

const burnValue = `
fn value(data: TensorData) -> Result<String, String> {
    let shape: Vec<usize> = data.shape.to_vec();
    let name = format!("{:?}", data.dtype).to_lowercase();
    let name = name.split('(').next().unwrap_or("").to_string();
    let elems: Vec<String> = if name == "bool" {
        data.iter::<bool>().map(|x| x.to_string()).collect()
    } else if name.starts_with('f') || name == "bf16" {
        data.iter::<f64>().map(float_json).collect()
    } else if name == "u64" {
        data.iter::<u64>().map(|x| x.to_string()).collect()
    } else {
        data.iter::<i64>().map(|x| x.to_string()).collect()
    };
    Ok(value_json(&name, &shape, elems))
}
`

// burnKind is the Rust tensor kind of a dtype's values.
func burnKind(d tensor.DType) string {
	switch {
	case d == tensor.Bool:
		return "Bool"
	case d.IsInt():
		return "Int"
	}
	return "burn::tensor::Float"
}

func burnTensor(t *tensor.Tensor) (string, string) {
	if t.Rank() == 0 {
		return "", "burn tensors have rank >= 1: a 0-dim tensor has no burn spelling"
	}
	if rustType(t.DType) == "" {
		return "", "burn has no complex tensors"
	}
	data := "vec![" + rustElements(t) + "]"
	if t.Len() == 0 {
		data = "Vec::<" + rustType(t.DType) + ">::new()"
	}
	dims := make([]string, t.Rank())
	for i, d := range t.Shape {
		dims[i] = strconv.Itoa(d)
	}
	return fmt.Sprintf("Tensor::<B, %d, %s>::from_data(TensorData::new(%s, [%s]), &device)", t.Rank(), burnKind(t.DType),
		data, strings.Join(dims, ", ")), ""
}

var burnBinary = map[string]string{"add": "add", "sub": "sub", "mul": "mul", "div": "div", "rem": "remainder",
	"fmod": "fmod", "pow": "powf", "maximum": "max_pair", "minimum": "min_pair", "eq": "equal", "ne": "not_equal",
	"lt": "lower", "le": "lower_equal", "gt": "greater", "ge": "greater_equal",
	"bitwise_and": "bitwise_and", "bitwise_or": "bitwise_or", "bitwise_xor": "bitwise_xor"}

var burnScalarOps = map[string]string{"add": "add_scalar", "sub": "sub_scalar", "mul": "mul_scalar", "div": "div_scalar",
	"rem": "remainder_scalar", "pow": "powf_scalar", "maximum": "clamp_min", "minimum": "clamp_max", "eq": "equal_elem",
	"ne": "not_equal_elem", "lt": "lower_elem", "le": "lower_equal_elem", "gt": "greater_elem", "ge": "greater_equal_elem",
	"bitwise_and": "bitwise_and_scalar", "bitwise_or": "bitwise_or_scalar", "bitwise_xor": "bitwise_xor_scalar"}

var burnUnary = map[string]string{"neg": "neg()", "abs": "abs()", "sign": "sign()", "sqrt": "sqrt()", "exp": "exp()",
	"floor": "floor()", "ceil": "ceil()", "round": "round()", "trunc": "trunc()", "square": "powi_scalar(2)",
	"bitwise_not": "bitwise_not()"}

func burnBody(c *tensor.Case, steps []*tensor.Case) string {
	if c.IsProgram() { // burn's ops take tensors by value: a program clones what it reads
		return rustProgramBody(c, steps, burnInput, func(n string) string { return n + ".clone()" }, burnOp,
			func(last string) string { return "    value(" + last + ".into_data())\n" })
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
		lines, why := burnInput(argName(k), a.Tensor)
		if why != "" {
			return compileError(why)
		}
		b.WriteString(lines)
		args = append(args, argName(k))
	}
	expr, why := burnOp(c, args)
	if why != "" {
		return b.String() + compileError(why)
	}
	if c.Op == "to_host" {
		return b.String() + "    " + expr + "\n"
	}
	return b.String() + "    let out = " + expr + ";\n    value(out.into_data())\n"
}

func burnOp(c *tensor.Case, args []string) (string, string) {
	if expr, ok := burnMatmulCat(c, args); ok { // repro_matmul.go
		return expr, ""
	}
	op, _ := tensor.LookupOp(c.Op)
	at := c.Attrs
	dim := 0
	if at.Dim != nil {
		dim = *at.Dim
	}
	if dim < 0 && len(c.Args) > 0 && c.Args[0].Tensor != nil {
		dim += c.Args[0].Tensor.Rank()
	}
	if expr, why, ok := burnSortOp(c, args, dim); ok { // repro_sort.go
		return expr, why
	}
	switch op.Class {
	case tensor.ClassBinary:
		if c.Args[0].Scalar != nil {
			return "", "burn has no scalar on the left"
		}
		if c.Args[1].Scalar != nil {
			if m, ok := burnScalarOps[c.Op]; ok {
				return args[0] + "." + m + "(" + args[1] + ")", ""
			}
		} else if m, ok := burnBinary[c.Op]; ok {
			return args[0] + "." + m + "(" + args[1] + ")", ""
		}
		return "", "burn has no " + c.Op
	case tensor.ClassUnary:
		if m, ok := burnUnary[c.Op]; ok {
			return args[0] + "." + m, ""
		}
	case tensor.ClassCast:
		return burnCast(c.Args[0].Tensor.DType, at.To, args[0])
	case tensor.ClassReduce:
		if at.Dim == nil {
			if c.Op == "argmax" || c.Op == "argmin" {
				return "", "burn has no " + c.Op + " over all elements"
			}
			return args[0] + "." + c.Op + "()", ""
		}
		fn := c.Op + "_dim"
		if c.Op == "argmax" || c.Op == "argmin" {
			fn = c.Op
		}
		s := fmt.Sprintf("%s.%s(%d)", args[0], fn, dim)
		if !at.KeepDim() {
			s += fmt.Sprintf(".squeeze_dim::<%d>(%d)", c.Args[0].Tensor.Rank()-1, dim)
		}
		return s, ""
	case tensor.ClassCumsum:
		return fmt.Sprintf("%s.cumsum(%d)", args[0], dim), ""
	case tensor.ClassIndexSelect:
		return fmt.Sprintf("%s.select(%d, %s)", args[0], dim, args[1]), ""
	case tensor.ClassFromVec:
		v := c.Args[0].Tensor
		dims := make([]string, len(at.Shape))
		for i, d := range at.Shape {
			dims[i] = strconv.Itoa(d)
		}
		return fmt.Sprintf("Tensor::<B, %d, %s>::from_data(TensorData::new(vec![%s], [%s]), &device)",
			len(at.Shape), burnKind(v.DType), rustElements(v), strings.Join(dims, ", ")), ""
	case tensor.ClassZeros:
		dims := make([]string, len(at.Shape))
		for i, d := range at.Shape {
			dims[i] = strconv.Itoa(d)
		}
		kind := "burn::tensor::Float"
		if at.DType.Valid() {
			kind = burnKind(at.DType)
		}
		return fmt.Sprintf("Tensor::<B, %d, %s>::zeros([%s], &device)", len(at.Shape), kind, strings.Join(dims, ", ")), ""
	case tensor.ClassToHost:
		typ := rustType(at.DType)
		if typ == "" || strings.HasPrefix(typ, "half") {
			return "", "no host element type for " + at.DType.String()
		}
		conv := "x.to_string()"
		if at.DType.IsFloat() {
			conv = "float_json(x as f64)"
		}
		return fmt.Sprintf("let data = %s.into_data();\n    let shape: Vec<usize> = data.shape.to_vec();\n"+
			"    let host = data.to_vec::<%s>().map_err(|e| format!(\"{e:?}\"))?;\n"+
			"    Ok(value_json(%q, &shape, host.into_iter().map(|x| %s).collect()))", args[0], typ, at.DType.String(), conv), ""
	}
	return "", "tfuzz has no burn spelling of " + c.Op
}

// burnCast is tensor.cast(dtype), which converts across kinds straight to
// the target (an IntDType for a Float or Bool tensor, a FloatDType for an
// Int or Bool one); .bool() for Bool.
func burnCast(from, to tensor.DType, x string) (string, string) {
	switch {
	case to.IsComplex() || from.IsComplex():
		return "", "burn has no complex tensors"
	case to == tensor.Bool:
		return x + ".bool()", ""
	case to.IsInt():
		return x + ".cast(IntDType::" + strings.ToUpper(to.String()) + ")", ""
	}
	return x + ".cast(FloatDType::" + strings.ToUpper(to.String()) + ")", ""
}
