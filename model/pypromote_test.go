package model

import (
	"strings"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// The promotion lattices as literal tables, copied from the promotion notes
// (/work/notes/promotion.md §2-§4), whose cells are the dtypes the real
// frameworks gave in the oracle's promote, promote0d and promote_val groups
// (193 of the 225 ordered pairs observed; the rest follow the same rules).
// Row = left operand, column = right operand. Short names: b bool, u1 u8,
// i1 i8, u2 u16, i2 i16, u4 u32, i4 i32, u8 u64, i8 i64, f2 f16, bf bf16,
// f4 f32, f8 f64, c4 c64, c8 c128; PE = PyTorch's uint16/32/64 promotion
// error; C2 = ComplexHalf (not a case-format dtype).

// torchDimDim is c10::promoteTypes: dim ⊕ dim (and 0-dim ⊕ 0-dim).
const torchDimDim = `
       b u1 i1 u2 i2 u4 i4 u8 i8 f2 bf f4 f8 c4 c8
   b   b u1 i1 PE i2 PE i4 PE i8 f2 bf f4 f8 c4 c8
  u1  u1 u1 i2 PE i2 PE i4 PE i8 f2 bf f4 f8 c4 c8
  i1  i1 i2 i1 PE i2 PE i4 PE i8 f2 bf f4 f8 c4 c8
  u2  PE PE PE u2 PE PE PE PE PE f2 bf f4 f8 PE PE
  i2  i2 i2 i2 PE i2 PE i4 PE i8 f2 bf f4 f8 c4 c8
  u4  PE PE PE PE PE u4 PE PE PE f2 bf f4 f8 PE PE
  i4  i4 i4 i4 PE i4 PE i4 PE i8 f2 bf f4 f8 c4 c8
  u8  PE PE PE PE PE PE PE u8 PE f2 bf f4 f8 PE PE
  i8  i8 i8 i8 PE i8 PE i8 PE i8 f2 bf f4 f8 c4 c8
  f2  f2 f2 f2 f2 f2 f2 f2 f2 f2 f2 f4 f4 f8 c4 c8
  bf  bf bf bf bf bf bf bf bf bf f4 bf f4 f8 c4 c8
  f4  f4 f4 f4 f4 f4 f4 f4 f4 f4 f4 f4 f4 f8 c4 c8
  f8  f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 c8 c8
  c4  c4 c4 c4 PE c4 PE c4 PE c4 c4 c4 c4 c8 c4 c8
  c8  c8 c8 c8 PE c8 PE c8 PE c8 c8 c8 c8 c8 c8 c8`

// torchDimZero is dim tensor (row) ⊕ 0-dim tensor (column).
const torchDimZero = `
       b u1 i1 u2 i2 u4 i4 u8 i8 f2 bf f4 f8 c4 c8
   b   b u1 i1 PE i2 PE i4 PE i8 f2 bf f4 f8 c4 c8
  u1  u1 u1 u1 u1 u1 u1 u1 u1 u1 f2 bf f4 f8 c4 c8
  i1  i1 i1 i1 i1 i1 i1 i1 i1 i1 f2 bf f4 f8 c4 c8
  u2  u2 u2 u2 u2 u2 u2 u2 u2 u2 f2 bf f4 f8 c4 c8
  i2  i2 i2 i2 i2 i2 i2 i2 i2 i2 f2 bf f4 f8 c4 c8
  u4  u4 u4 u4 u4 u4 u4 u4 u4 u4 f2 bf f4 f8 c4 c8
  i4  i4 i4 i4 i4 i4 i4 i4 i4 i4 f2 bf f4 f8 c4 c8
  u8  u8 u8 u8 u8 u8 u8 u8 u8 u8 f2 bf f4 f8 c4 c8
  i8  i8 i8 i8 i8 i8 i8 i8 i8 i8 f2 bf f4 f8 c4 c8
  f2  f2 f2 f2 f2 f2 f2 f2 f2 f2 f2 f2 f2 f2 C2 C2
  bf  bf bf bf bf bf bf bf bf bf bf bf bf bf c4 c4
  f4  f4 f4 f4 f4 f4 f4 f4 f4 f4 f4 f4 f4 f4 c4 c4
  f8  f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 c8 c8
  c4  c4 c4 c4 c4 c4 c4 c4 c4 c4 c4 c4 c4 c4 c4 c4
  c8  c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8`

// torchScalars is tensor ⊕ Python scalar (either side).
const torchScalars = `
tensor:  b  u1 i1 u2 i2 u4 i4 u8 i8 f2 bf f4 f8 c4 c8
bool  :  b  u1 i1 u2 i2 u4 i4 u8 i8 f2 bf f4 f8 c4 c8
int   :  i8 u1 i1 u2 i2 u4 i4 u8 i8 f2 bf f4 f8 c4 c8
float :  f4 f4 f4 f4 f4 f4 f4 f4 f4 f2 bf f4 f8 c4 c8`

// numpyArrays is np.promote_types (0-dim arrays are ordinary in NumPy 2).
const numpyArrays = `
       b u1 i1 u2 i2 u4 i4 u8 i8 f2 bf f4 f8 c4 c8
   b   b u1 i1 u2 i2 u4 i4 u8 i8 f2 bf f4 f8 c4 c8
  u1  u1 u1 i2 u2 i2 u4 i4 u8 i8 f2 bf f4 f8 c4 c8
  i1  i1 i2 i1 i4 i2 i8 i4 f8 i8 f2 bf f4 f8 c4 c8
  u2  u2 u2 i4 u2 i4 u4 i4 u8 i8 f4 f4 f4 f8 c4 c8
  i2  i2 i2 i2 i4 i2 i8 i4 f8 i8 f4 f4 f4 f8 c4 c8
  u4  u4 u4 i8 u4 i8 u4 i8 u8 i8 f8 f8 f8 f8 c8 c8
  i4  i4 i4 i4 i4 i4 i8 i4 f8 i8 f8 f8 f8 f8 c8 c8
  u8  u8 u8 f8 u8 f8 u8 f8 u8 f8 f8 f8 f8 f8 c8 c8
  i8  i8 i8 i8 i8 i8 i8 i8 f8 i8 f8 f8 f8 f8 c8 c8
  f2  f2 f2 f2 f4 f4 f8 f8 f8 f8 f2 f4 f4 f8 c4 c8
  bf  bf bf bf f4 f4 f8 f8 f8 f8 f4 bf f4 f8 c4 c8
  f4  f4 f4 f4 f4 f4 f8 f8 f8 f8 f4 f4 f4 f8 c4 c8
  f8  f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 c8 c8
  c4  c4 c4 c4 c4 c4 c8 c8 c8 c8 c4 c4 c4 c8 c4 c8
  c8  c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8`

// numpyScalars is array ⊕ Python scalar under NEP 50 (an int that does not
// fit an integer result raises OverflowError: see pybinary_test.go).
const numpyScalars = `
tensor:  b  u1 i1 u2 i2 u4 i4 u8 i8 f2 bf f4 f8 c4 c8
bool  :  b  u1 i1 u2 i2 u4 i4 u8 i8 f2 bf f4 f8 c4 c8
int   :  i8 u1 i1 u2 i2 u4 i4 u8 i8 f2 bf f4 f8 c4 c8
float :  f8 f8 f8 f8 f8 f8 f8 f8 f8 f2 f4 f4 f8 c4 c8`

// jaxX64 is JAX's lattice with x64 (0-dim identical).
const jaxX64 = `
       b u1 i1 u2 i2 u4 i4 u8 i8 f2 bf f4 f8 c4 c8
   b   b u1 i1 u2 i2 u4 i4 u8 i8 f2 bf f4 f8 c4 c8
  u1  u1 u1 i2 u2 i2 u4 i4 u8 i8 f2 bf f4 f8 c4 c8
  i1  i1 i2 i1 i4 i2 i8 i4 f8 i8 f2 bf f4 f8 c4 c8
  u2  u2 u2 i4 u2 i4 u4 i4 u8 i8 f2 bf f4 f8 c4 c8
  i2  i2 i2 i2 i4 i2 i8 i4 f8 i8 f2 bf f4 f8 c4 c8
  u4  u4 u4 i8 u4 i8 u4 i8 u8 i8 f2 bf f4 f8 c4 c8
  i4  i4 i4 i4 i4 i4 i8 i4 f8 i8 f2 bf f4 f8 c4 c8
  u8  u8 u8 f8 u8 f8 u8 f8 u8 f8 f2 bf f4 f8 c4 c8
  i8  i8 i8 i8 i8 i8 i8 i8 f8 i8 f2 bf f4 f8 c4 c8
  f2  f2 f2 f2 f2 f2 f2 f2 f2 f2 f2 f4 f4 f8 c4 c8
  bf  bf bf bf bf bf bf bf bf bf f4 bf f4 f8 c4 c8
  f4  f4 f4 f4 f4 f4 f4 f4 f4 f4 f4 f4 f4 f8 c4 c8
  f8  f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 f8 c8 c8
  c4  c4 c4 c4 c4 c4 c4 c4 c4 c4 c4 c4 c4 c8 c4 c8
  c8  c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8`

// jaxX32 is JAX's lattice without x64, indexed by the host data's dtype
// (the inputs are narrowed to 32 bits first).
const jaxX32 = `
       b u1 i1 u2 i2 u4 i4 u8 i8 f2 bf f4 f8 c4 c8
   b   b u1 i1 u2 i2 u4 i4 u4 i4 f2 bf f4 f4 c4 c4
  u1  u1 u1 i2 u2 i2 u4 i4 u4 i4 f2 bf f4 f4 c4 c4
  i1  i1 i2 i1 i4 i2 i4 i4 i4 i4 f2 bf f4 f4 c4 c4
  u2  u2 u2 i4 u2 i4 u4 i4 u4 i4 f2 bf f4 f4 c4 c4
  i2  i2 i2 i2 i4 i2 i4 i4 i4 i4 f2 bf f4 f4 c4 c4
  u4  u4 u4 i4 u4 i4 u4 i4 u4 i4 f2 bf f4 f4 c4 c4
  i4  i4 i4 i4 i4 i4 i4 i4 i4 i4 f2 bf f4 f4 c4 c4
  u8  u4 u4 i4 u4 i4 u4 i4 u4 i4 f2 bf f4 f4 c4 c4
  i8  i4 i4 i4 i4 i4 i4 i4 i4 i4 f2 bf f4 f4 c4 c4
  f2  f2 f2 f2 f2 f2 f2 f2 f2 f2 f2 f4 f4 f4 c4 c4
  bf  bf bf bf bf bf bf bf bf bf f4 bf f4 f4 c4 c4
  f4  f4 f4 f4 f4 f4 f4 f4 f4 f4 f4 f4 f4 f4 c4 c4
  f8  f4 f4 f4 f4 f4 f4 f4 f4 f4 f4 f4 f4 f4 c4 c4
  c4  c4 c4 c4 c4 c4 c4 c4 c4 c4 c4 c4 c4 c4 c4 c4
  c8  c4 c4 c4 c4 c4 c4 c4 c4 c4 c4 c4 c4 c4 c4 c4`

// jaxScalars is tensor ⊕ Python scalar, with and without x64.
const jaxScalars = `
tensor:        b  u1 i1 u2 i2 u4 i4 u8 i8 f2 bf f4 f8 c4 c8
bool  (x64):   b  u1 i1 u2 i2 u4 i4 u8 i8 f2 bf f4 f8 c4 c8
int   (x64):   i8 u1 i1 u2 i2 u4 i4 u8 i8 f2 bf f4 f8 c4 c8
float (x64):   f8 f8 f8 f8 f8 f8 f8 f8 f8 f2 bf f4 f8 c4 c8
bool  (x32):   b  u1 i1 u2 i2 u4 i4 u4 i4 f2 bf f4 f4 c4 c4
int   (x32):   i4 u1 i1 u2 i2 u4 i4 u4 i4 f2 bf f4 f4 c4 c4
float (x32):   f4 f4 f4 f4 f4 f4 f4 f4 f4 f2 bf f4 f4 c4 c4`

var shortDTypes = map[string]tensor.DType{
	"b": tensor.Bool, "u1": tensor.U8, "i1": tensor.I8, "u2": tensor.U16, "i2": tensor.I16,
	"u4": tensor.U32, "i4": tensor.I32, "u8": tensor.U64, "i8": tensor.I64, "f2": tensor.F16,
	"bf": tensor.BF16, "f4": tensor.F32, "f8": tensor.F64, "c4": tensor.C64, "c8": tensor.C128,
}

// promoTable is a parsed table: cell[row label][column index] and the column dtypes.
type promoTable struct {
	cols  []tensor.DType
	cells map[string][]string
}

// parseTable reads a table whose first line holds the column names and whose
// other lines start with a row label ending before the first cell ("f2",
// "bool  :", "int   (x64):").
func parseTable(t *testing.T, text string) promoTable {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(text), "\n")
	head := strings.Fields(lines[0])
	if head[0] == "tensor:" {
		head = head[1:]
	}
	pt := promoTable{cells: map[string][]string{}}
	for _, h := range head {
		pt.cols = append(pt.cols, shortDTypes[h])
	}
	for _, l := range lines[1:] {
		f := strings.Fields(l)
		label := f[0]
		if i := strings.Index(l, ":"); i >= 0 {
			label = strings.Join(strings.Fields(l[:i]), " ")
			f = strings.Fields(l[i+1:])
		} else {
			f = f[1:]
		}
		if len(f) != len(pt.cols) {
			t.Fatalf("row %q has %d cells for %d columns", label, len(f), len(pt.cols))
		}
		pt.cells[label] = f
	}
	return pt
}

func dimArg(d tensor.DType) pyArg  { return pyArg{t: tensor.New(d, 2)} }
func zeroArg(d tensor.DType) pyArg { return pyArg{t: tensor.New(d)} }
func pyScalar(k tensor.ScalarKind) pyArg {
	text := map[tensor.ScalarKind]string{tensor.ScalarBool: "true", tensor.ScalarInt: "3", tensor.ScalarFloat: "0.5"}[k]
	return pyArg{s: &tensor.Scalar{Text: text, Kind: k}}
}

var scalarRows = map[string]tensor.ScalarKind{"bool": tensor.ScalarBool, "int": tensor.ScalarInt, "float": tensor.ScalarFloat}

// checkTorch compares torchResultType of args with a table cell.
func checkTorch(t *testing.T, what string, args []pyArg, want string) {
	t.Helper()
	got, err := torchResultType(args)
	switch {
	case want == "PE":
		if _, ok := err.(*promoError); !ok {
			t.Errorf("%s: got %v (err %v), want the uint promotion error", what, got, err)
		}
	case want == "C2":
		if err != nil || !torchComplexHalf(args) {
			t.Errorf("%s: got %v (err %v), want ComplexHalf", what, got, err)
		}
	case err != nil || got != shortDTypes[want]:
		t.Errorf("%s: got %v (err %v), want %s", what, got, err, want)
	}
}

func TestTorchPromotionLattice(t *testing.T) {
	dd, dz := parseTable(t, torchDimDim), parseTable(t, torchDimZero)
	for _, a := range dd.cols {
		row := dd.cells[shortName(a)]
		for j, b := range dd.cols {
			checkTorch(t, a.String()+"[2] + "+b.String()+"[2]", []pyArg{dimArg(a), dimArg(b)}, row[j])
			checkTorch(t, a.String()+"[] + "+b.String()+"[]", []pyArg{zeroArg(a), zeroArg(b)}, row[j])
			checkTorch(t, a.String()+"[2] + "+b.String()+"[]", []pyArg{dimArg(a), zeroArg(b)}, dz.cells[shortName(a)][j])
			// a 0-dim left operand behaves as the transposed table says
			checkTorch(t, b.String()+"[] + "+a.String()+"[2]", []pyArg{zeroArg(b), dimArg(a)}, dz.cells[shortName(a)][j])
		}
	}
}

func TestTorchScalarPromotion(t *testing.T) {
	st := parseTable(t, torchScalars)
	for label, k := range scalarRows {
		for j, d := range st.cols {
			want := st.cells[label][j]
			checkTorch(t, d.String()+"[2] + "+label, []pyArg{dimArg(d), pyScalar(k)}, want)
			checkTorch(t, label+" + "+d.String()+"[2]", []pyArg{pyScalar(k), dimArg(d)}, want)
			checkTorch(t, d.String()+"[] + "+label, []pyArg{zeroArg(d), pyScalar(k)}, want)
		}
	}
}

func TestNumpyPromotionLattice(t *testing.T) {
	at := parseTable(t, numpyArrays)
	for _, a := range at.cols {
		for j, b := range at.cols {
			want := shortDTypes[at.cells[shortName(a)][j]]
			for _, args := range [][]pyArg{{dimArg(a), dimArg(b)}, {zeroArg(a), dimArg(b)}, {dimArg(a), zeroArg(b)}} {
				if got := numpyResultType(args); got != want {
					t.Errorf("%v %v: got %v, want %v", args[0].t, args[1].t, got, want)
				}
			}
		}
	}
	st := parseTable(t, numpyScalars)
	for label, k := range scalarRows {
		for j, d := range st.cols {
			want := shortDTypes[st.cells[label][j]]
			for _, args := range [][]pyArg{{dimArg(d), pyScalar(k)}, {pyScalar(k), zeroArg(d)}} {
				if got := numpyResultType(args); got != want {
					t.Errorf("%v with a Python %s: got %v, want %v", d, label, got, want)
				}
			}
		}
	}
}

// x32Host is what JAX without x64 makes of 64-bit host data.
var x32Host = map[tensor.DType]tensor.DType{tensor.I64: tensor.I32, tensor.U64: tensor.U32, tensor.F64: tensor.F32, tensor.C128: tensor.C64}

func jaxHeld(d tensor.DType, x64 bool) tensor.DType {
	if n, ok := x32Host[d]; ok && !x64 {
		return n
	}
	return d
}

func TestJAXPromotionLattice(t *testing.T) {
	for _, x64 := range []bool{true, false} {
		text, suffix := jaxX32, "x32"
		if x64 {
			text, suffix = jaxX64, "x64"
		}
		lt := parseTable(t, text)
		for _, a := range lt.cols {
			for j, b := range lt.cols {
				want := shortDTypes[lt.cells[shortName(a)][j]]
				ha, hb := jaxHeld(a, x64), jaxHeld(b, x64)
				for _, args := range [][]pyArg{{dimArg(ha), dimArg(hb)}, {zeroArg(ha), dimArg(hb)}} {
					if got := jaxResultType(args, x64); got != want {
						t.Errorf("%s: %v + %v: got %v, want %v", suffix, a, b, got, want)
					}
				}
			}
		}
		st := parseTable(t, jaxScalars)
		for label, k := range scalarRows {
			row := st.cells[label+" ("+suffix+")"]
			for j, d := range st.cols {
				want := shortDTypes[row[j]]
				h := jaxHeld(d, x64)
				for _, args := range [][]pyArg{{dimArg(h), pyScalar(k)}, {pyScalar(k), zeroArg(h)}} {
					if got := jaxResultType(args, x64); got != want {
						t.Errorf("%s: %v with a Python %s: got %v, want %v", suffix, d, label, got, want)
					}
				}
			}
		}
	}
}

// shortName is the table label of d.
func shortName(d tensor.DType) string {
	for k, v := range shortDTypes {
		if v == d {
			return k
		}
	}
	return "?"
}
