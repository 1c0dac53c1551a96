package reports

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/tensor"
)

// pyWriter writes the Python repro program of one case for PyTorch, NumPy
// or JAX; the spellings are those of the oracle runs (corpus/oracle/README.md).
type pyWriter struct {
	fw, profile string
	p           *model.Profile // nil for a profile the model does not have
	mlDtypes    bool           // NumPy needs ml_dtypes for bf16
}

func pythonProgram(profile string, c *tensor.Case, h header) (src, snippet string) {
	w := &pyWriter{fw: FrameworkOf(profile), profile: profile}
	w.p, _ = model.Lookup(profile)
	body := w.body(c)
	h.notes = append(h.notes, w.notes()...)
	var b strings.Builder
	b.WriteString("#!/usr/bin/env python3\n")
	b.WriteString(h.lines("# "))
	b.WriteString("import json\nimport math\nimport os\n\n")
	b.WriteString("OP = " + strconv.Quote(opConst(c)) + "\n")
	b.WriteString(w.setup())
	b.WriteString(pythonRuntime)
	b.WriteString(w.hostFunc())
	b.WriteString("\n\ndef case():\n")
	b.WriteString(body)
	b.WriteString("\n\n\nrun(case)\n")
	return b.String(), dedent(body)
}

func (w *pyWriter) device() string {
	if w.p != nil {
		return string(w.p.Device)
	}
	_, dev, _ := strings.Cut(w.profile, "/")
	dev, _, _ = strings.Cut(dev, "-")
	return dev
}

func (w *pyWriter) notes() []string {
	switch {
	case w.profile == "pytorch/cpu-arm64":
		return []string{"Run it on an Arm64 CPU (the profile's conversions and divisions are Arm64's)."}
	case w.fw == "pytorch" && w.device() == "cpu":
		return []string{"Run it on an x86-64 CPU (the profile's conversions and divisions are x86-64's)."}
	case w.fw == "numpy" && w.mlDtypes:
		return []string{"bf16 comes from ml_dtypes (pip install ml_dtypes), as in the oracle runs."}
	}
	return nil
}

func (w *pyWriter) setup() string {
	switch w.fw {
	case "pytorch":
		dev := w.device()
		s := "import numpy as np\nimport torch\n"
		if w.mlDtypes {
			s += mlDtypesImport
		}
		s += "\nDEV = " + strconv.Quote(dev) + "\n"
		if dev == "cpu" {
			s += "torch.set_num_threads(1)\n"
		}
		return s
	case "jax":
		platform, x64 := "cpu", "False"
		if w.device() == "gpu" {
			platform = "cuda"
		}
		if (w.p != nil && w.p.X64) || strings.HasSuffix(w.profile, "-x64") {
			x64 = "True"
		}
		return "os.environ[\"JAX_PLATFORMS\"] = " + strconv.Quote(platform) + "\nimport jax\n\n" +
			"jax.config.update(\"jax_enable_x64\", " + x64 + ")\nimport jax.numpy as jnp\nimport numpy as np\n"
	}
	s := "import numpy as np\n"
	if w.mlDtypes {
		s += mlDtypesImport
	}
	return s
}

// mlDtypesImport imports ml_dtypes for bf16; without it the program cannot
// state a bf16 value and says so as an unsupported outcome.
const mlDtypesImport = `try:
    import ml_dtypes
except ImportError:
    print(json.dumps({"unsupported": {"message": "bf16 needs ml_dtypes (pip install ml_dtypes)"}}))
    raise SystemExit(0)
`

func (w *pyWriter) hostFunc() string {
	if w.fw == "pytorch" {
		return `

def host(x):
    if isinstance(x, torch.Tensor):
        x = x.detach().cpu()
        if x.dtype == torch.bfloat16:
            return x.float().numpy(), "bf16"  # exact: every bf16 is an f32
        return x.resolve_conj().numpy(), None
    return np.asarray(x), None
`
	}
	return `

def host(x):
    return np.asarray(x), None
`
}

var pyDTypeNames = map[tensor.DType]string{
	tensor.Bool: "bool", tensor.U8: "uint8", tensor.I8: "int8", tensor.U16: "uint16", tensor.I16: "int16",
	tensor.U32: "uint32", tensor.I32: "int32", tensor.U64: "uint64", tensor.I64: "int64", tensor.F16: "float16",
	tensor.BF16: "bfloat16", tensor.F32: "float32", tensor.F64: "float64", tensor.C64: "complex64", tensor.C128: "complex128",
}

// dtype is the expression of a dtype in the framework: torch.int8, np.int8, jnp.int8.
func (w *pyWriter) dtype(d tensor.DType) string {
	name := pyDTypeNames[d]
	switch w.fw {
	case "pytorch":
		return "torch." + name
	case "jax":
		if d == tensor.Bool {
			return "jnp.bool_"
		}
		return "jnp." + name
	}
	switch d {
	case tensor.Bool:
		return "np.bool_"
	case tensor.BF16:
		w.mlDtypes = true
		return "ml_dtypes.bfloat16"
	}
	return "np." + name
}

// npDType is the NumPy dtype of host data (for torch.from_numpy and jnp.asarray).
func (w *pyWriter) npDType(d tensor.DType) string {
	switch d {
	case tensor.Bool:
		return "np.bool_"
	case tensor.BF16:
		if w.fw == "jax" {
			return "jnp.bfloat16"
		}
		w.mlDtypes = true
		return "ml_dtypes.bfloat16"
	}
	return "np." + pyDTypeNames[d]
}

// pyFloat writes x exactly: "0.5", "float.fromhex('0x1.99999ap-4')", "nan", "-inf".
func pyFloat(x float64) string {
	switch s := tensor.FormatFloat(x); s {
	case "nan", "inf", "-inf":
		return s
	}
	if s, ok := exactDecimal(x); ok {
		return s
	}
	return "float.fromhex('" + hexFloat(x) + "')"
}

// pyList writes the elements of t, row-major, as a flat Python list.
func pyList(t *tensor.Tensor) string {
	parts := make([]string, t.Len())
	for i := range parts {
		switch d := t.DType; {
		case d == tensor.Bool:
			parts[i] = map[bool]string{true: "True", false: "False"}[t.Bool(i)]
		case d.IsInt():
			parts[i] = t.ElementString(i)
		case d.IsComplex():
			c := t.Complex(i)
			parts[i] = "complex(" + pyFloat(real(c)) + ", " + pyFloat(imag(c)) + ")"
		default:
			parts[i] = pyFloat(t.Float(i))
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// pyShape writes a shape as a Python tuple: "()", "(3,)", "(2, 3)".
func pyShape(shape []int) string {
	parts := make([]string, len(shape))
	for i, d := range shape {
		parts[i] = strconv.Itoa(d)
	}
	if len(parts) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// reshape is the suffix that gives a flat list its shape (none for rank 1).
func reshape(shape []int) string {
	if len(shape) == 1 {
		return ""
	}
	return ".reshape(" + pyShape(shape) + ")"
}

// tensorExpr builds an input tensor from host data with the typed constructor.
func (w *pyWriter) tensorExpr(t *tensor.Tensor) string {
	list, d := pyList(t), t.DType
	switch w.fw {
	case "pytorch":
		if d == tensor.U16 || d == tensor.U32 || d == tensor.U64 {
			return "torch.from_numpy(np.array(" + list + ", dtype=" + w.npDType(d) + ")" + reshape(t.Shape) + ").to(DEV)"
		}
		return "torch.tensor(" + list + ", dtype=" + w.dtype(d) + ", device=DEV)" + reshape(t.Shape)
	case "jax":
		return "jnp.asarray(np.array(" + list + ", dtype=" + w.npDType(d) + ")" + reshape(t.Shape) + ")"
	}
	return "np.array(" + list + ", dtype=" + w.npDType(d) + ")" + reshape(t.Shape)
}

// pyScalar writes a host scalar as the program's source would.
func pyScalar(s *tensor.Scalar) string {
	switch s.Kind {
	case tensor.ScalarBool:
		if s.Text == "true" {
			return "True"
		}
		return "False"
	case tensor.ScalarFloat:
		low := strings.ToLower(s.Text)
		switch strings.TrimPrefix(low, "+") {
		case "nan", "-nan":
			return "float(\"nan\")"
		case "inf", "infinity":
			return "float(\"inf\")"
		case "-inf", "-infinity":
			return "float(\"-inf\")"
		}
		if strings.Contains(low, "0x") {
			return "float.fromhex(" + strconv.Quote(s.Text) + ")"
		}
	}
	return s.Text
}

var pyOperators = map[string]string{
	"add": "+", "sub": "-", "mul": "*", "div": "/", "floor_div": "//", "rem": "%", "pow": "**",
	"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">=",
	"bitwise_and": "&", "bitwise_or": "|", "bitwise_xor": "^", "shift_left": "<<", "shift_right": ">>",
}

// mod is the framework's module of functions.
func (w *pyWriter) mod() string {
	return map[string]string{"pytorch": "torch", "numpy": "np", "jax": "jnp"}[w.fw]
}

// body writes the lines of case(): the inputs, then the operation.
func (w *pyWriter) body(c *tensor.Case) string {
	if c.IsProgram() {
		return w.programBody(c)
	}
	var lines []string
	var args []string
	for k, a := range c.Args {
		if a.IsNull() {
			args = append(args, "None")
			continue
		}
		if a.Scalar != nil {
			args = append(args, pyScalar(a.Scalar))
			continue
		}
		name := argName(k)
		if c.Op == "index_select" && k == 1 {
			name = "index"
		}
		lines = append(lines, w.inputLines(name, a.Tensor)...)
		args = append(args, name)
	}
	expr, unsupported := w.opExpr(c, args)
	if unsupported != "" {
		lines = append(lines, "raise Unsupported("+strconv.Quote(unsupported)+")")
	} else {
		lines = append(lines, "return "+expr)
	}
	return "    " + strings.Join(lines, "\n    ")
}

// opExpr spells the case's op on the argument expressions, or says why the
// framework has no spelling of it.
func (w *pyWriter) opExpr(c *tensor.Case, args []string) (expr, unsupported string) {
	if expr, why, ok := w.newOpExpr(c, args); ok { // repro_newops.go
		return expr, why
	}
	if expr, why, ok := w.sortOpExpr(c, args); ok { // repro_sort.go
		return expr, why
	}
	op, _ := tensor.LookupOp(c.Op)
	m := w.mod()
	at := c.Attrs
	switch op.Class {
	case tensor.ClassBinary:
		x, y := args[0], args[1]
		if sym, ok := pyOperators[c.Op]; ok {
			return x + " " + sym + " " + y, ""
		}
		if c.Op == "trunc_div" {
			if w.fw != "pytorch" {
				return "", "no truncating integer division in this API"
			}
			return "torch.div(" + x + ", " + y + ", rounding_mode=\"trunc\")", ""
		}
		return m + "." + c.Op + "(" + x + ", " + y + ")", ""
	case tensor.ClassUnary:
		switch c.Op {
		case "neg":
			return "-" + args[0], ""
		case "bitwise_not":
			return "~" + args[0], ""
		}
		return m + "." + c.Op + "(" + args[0] + ")", ""
	case tensor.ClassCast:
		if at.Mode == "convert" {
			return "", "no checked convert in this API (astype / .to convert in every direction)"
		}
		if w.fw == "pytorch" {
			return args[0] + ".to(" + w.dtype(at.To) + ")", ""
		}
		return args[0] + ".astype(" + w.dtype(at.To) + ")", ""
	case tensor.ClassReduce:
		return w.reduceExpr(c, args[0]), ""
	case tensor.ClassCumsum:
		dim := 0
		if at.Dim != nil {
			dim = *at.Dim
		}
		if w.fw == "pytorch" {
			return fmt.Sprintf("%s.cumsum(%d%s)", args[0], dim, dtypeKw(w, at)), ""
		}
		return fmt.Sprintf("%s.cumsum(%s, axis=%d%s)", m, args[0], dim, dtypeKw(w, at)), ""
	case tensor.ClassIndexSelect:
		dim := 0
		if at.Dim != nil {
			dim = *at.Dim
		}
		if w.fw == "pytorch" {
			return fmt.Sprintf("%s.index_select(%d, %s)", args[0], dim, args[1]), ""
		}
		return fmt.Sprintf("%s.take(%s, %s, axis=%d)", m, args[0], args[1], dim), ""
	case tensor.ClassFromLiteral:
		lit, ok := pyLiteral(*at.Literal)
		if !ok {
			return "", "not a Python literal: " + *at.Literal
		}
		return w.create("tensor", "array", "array", lit+dtypeKw(w, at)), ""
	case tensor.ClassArange:
		args := *at.End
		if at.Start != nil {
			args = *at.Start + ", " + args
		}
		if _, ok := pyLiteral(args); !ok {
			return "", "not Python literals: " + args
		}
		return w.create("arange", "arange", "arange", args+dtypeKw(w, at)), ""
	case tensor.ClassZeros:
		a := pyShape(at.Shape)
		if at.DType.Valid() {
			a += ", dtype=" + w.dtype(at.DType)
		}
		return w.create("zeros", "zeros", "zeros", a), ""
	case tensor.ClassFromVec:
		return args[0] + ".reshape(" + pyShape(at.Shape) + ")", ""
	case tensor.ClassToHost:
		return "read_back(" + args[0] + ", " + w.npDType(at.DType) + ")", ""
	}
	return "", "tfuzz has no " + w.fw + " spelling of " + c.Op
}

// create calls a creation function with args; PyTorch places it on DEV.
func (w *pyWriter) create(torchFn, npFn, jaxFn, args string) string {
	switch w.fw {
	case "pytorch":
		return "torch." + torchFn + "(" + args + ", device=DEV)"
	case "jax":
		return "jnp." + jaxFn + "(" + args + ")"
	}
	return "np." + npFn + "(" + args + ")"
}

func (w *pyWriter) reduceExpr(c *tensor.Case, x string) string {
	at := c.Attrs
	op := c.Op
	var kw []string
	dim := "None"
	if at.Dim != nil {
		dim = strconv.Itoa(*at.Dim)
	}
	// keepdim without dim: a reduction over all elements, as the oracle runs
	// (and the model) read it
	keep := ""
	if at.Keepdim != nil && at.Dim != nil {
		keep = map[bool]string{true: "True", false: "False"}[*at.Keepdim]
	}
	if at.DType.Valid() {
		kw = append(kw, "dtype="+w.dtype(at.DType))
	}
	if w.fw == "pytorch" {
		if at.Dim == nil {
			return x + "." + op + "(" + strings.Join(kw, ", ") + ")"
		}
		fn := op
		if op == "max" || op == "min" {
			fn = "a" + op
		}
		pos := []string{x, "dim=" + dim}
		if keep != "" {
			pos = append(pos, "keepdim="+keep)
		}
		return "torch." + fn + "(" + strings.Join(append(pos, kw...), ", ") + ")"
	}
	pos := []string{x}
	if at.Dim != nil {
		pos = append(pos, "axis="+dim)
	}
	if keep != "" {
		pos = append(pos, "keepdims="+keep)
	}
	return w.mod() + "." + op + "(" + strings.Join(append(pos, kw...), ", ") + ")"
}

var (
	pyLiteralWords = regexp.MustCompile(`\b(true|false|nan|inf)\b`)
	pyLiteralChars = regexp.MustCompile(`^[-+0-9.eE\[\], _]*$`)
)

// pyLiteral turns the case's literal text into Python source, if it is one
// a Python program could contain.
func pyLiteral(text string) (string, bool) {
	rest := pyLiteralWords.ReplaceAllString(text, "")
	if !pyLiteralChars.MatchString(rest) {
		return "", false
	}
	return pyLiteralWords.ReplaceAllStringFunc(text, func(w string) string {
		return map[string]string{"true": "True", "false": "False", "nan": "float(\"nan\")", "inf": "float(\"inf\")"}[w]
	}), true
}
