package props

import (
	"strings"
	"sync"

	"github.com/tfuzz/tfuzz/model"
	"github.com/tfuzz/tfuzz/tensor"
)

// Aiming: a check can fail only where the model states an outcome that a
// wrong implementation could miss. A case the profile answers `unsupported`
// (candle has no f64 + f32, tenferro no i8) is compared on its form alone,
// so a generator that ignores what a profile supports spends most of its
// cases there (87% of tenferro's, before aiming). A support table, probed
// from the model once per profile with one small case per (op, dtypes)
// combination, lets the generator draw mostly what the profile answers with
// a value, an error, a panic or a crash, and still, one case in exploreOneIn,
// anything at all, so that the unsupported answers stay checked too.

// exploreOneIn is how often an aimed draw ignores the support table.
const exploreOneIn = 10

// support is what one profile answers with more than `unsupported`.
type support struct {
	ops      []string              // ops with at least one supported dtype
	byOp     map[string]*opSupport // what it answers per op (probing writes it; scopes keep the pointers)
	casts    [numDTypes][]tensor.DType
	indexes  [numDTypes][]tensor.DType // index_select source dtype -> index dtypes
	conds    [numDTypes][]tensor.DType // where value dtype -> condition dtypes
	masks    [numDTypes][]tensor.DType // mask_select input dtype -> mask dtypes
	literals []litForm                 // from_literal forms the profile answers
	aranges  []litKind                 // arange bound kinds it answers
	zeros    zerosSupport
	rust     bool // literals in Rust syntax (candle, burn, tenferro)
	steps    bool // views may slice with a step (views.go)
}

// numDTypes sizes the tables indexed by a dtype (tensor.Invalid included).
const numDTypes = int(tensor.C128) + 1

// opSupport is what a profile answers for one op. Its tables are arrays
// indexed by dtype: a draw reads several of them, and a map lookup per read
// would cost a visible share of a small case.
type opSupport struct {
	dtypes   []tensor.DType               // main input dtypes
	partners [numDTypes][]tensor.DType    // binary, matmul and cat: first dtype -> other tensor dtypes
	scalars  [numDTypes][]scalarPlacement // binary: tensor dtype -> scalar kinds and sides
	minRank  int                          // 1 where the profile has no 0-dim tensors for the op
}

// of returns the table of op, adding an empty one the first time.
func (s *support) of(op string) *opSupport {
	o := s.byOp[op]
	if o == nil {
		o = &opSupport{}
		s.byOp[op] = o
	}
	return o
}

// zerosSupport is what zeros answers: with which dtype attrs, and whether
// without one (candle has no default dtype).
type zerosSupport struct {
	noDType bool
	rank0   bool
}

type scalarPlacement struct {
	kind tensor.ScalarKind
	left bool
}

// supportCache holds each profile's support table, probed once (workers
// that need different profiles probe them at the same time).
var supportCache sync.Map // profile -> func() *support (a sync.OnceValue)

// supportOf returns the support table of profile, probing the model the
// first time.
func supportOf(profile string) *support {
	probe, _ := supportCache.LoadOrStore(profile, sync.OnceValue(func() *support { return probeSupport(profile) }))
	return probe.(func() *support)()
}

// indexDTypes are the index dtypes index_select cases use.
var indexDTypes = []tensor.DType{tensor.I64, tensor.I32, tensor.U8, tensor.U32, tensor.I16,
	tensor.I8, tensor.U16, tensor.U64, tensor.Bool, tensor.F32}

func probeSupport(profile string) *support {
	s := &support{byOp: map[string]*opSupport{}}
	fw, _, _ := strings.Cut(profile, "/")
	s.rust = fw == "candle" || fw == "burn" || fw == "tenferro"
	answers := func(c *tensor.Case) bool { return model.Eval(profile, c).Form != tensor.FormUnsupported }
	for _, op := range tensor.Ops {
		var ds []tensor.DType
		o := s.of(op.Name)
		switch op.Class {
		case tensor.ClassBinary:
			for _, a := range tensor.AllDTypes {
				ok := false
				for _, b := range tensor.AllDTypes {
					if answers(probeCase(op.Name, tensor.Arg{Tensor: probeTensor(a)}, tensor.Arg{Tensor: probeTensor(b)})) {
						o.partners[a] = append(o.partners[a], b)
						ok = true
					}
				}
				for _, k := range scalarKinds {
					for _, left := range []bool{false, true} {
						args := []tensor.Arg{{Tensor: probeTensor(a)}, {Scalar: probeScalar(k)}}
						if left {
							args[0], args[1] = args[1], args[0]
						}
						if answers(probeCase(op.Name, args...)) {
							o.scalars[a] = append(o.scalars[a], scalarPlacement{k, left})
							ok = true
						}
					}
				}
				if ok {
					ds = append(ds, a)
				}
			}
		case tensor.ClassCast:
			for _, a := range tensor.AllDTypes {
				for _, to := range tensor.AllDTypes {
					c := probeCase(op.Name, tensor.Arg{Tensor: probeTensor(a)})
					c.Attrs.To = to
					if answers(c) {
						s.casts[a] = append(s.casts[a], to)
					}
				}
				if len(s.casts[a]) > 0 {
					ds = append(ds, a)
				}
			}
		case tensor.ClassIndexSelect:
			for _, a := range tensor.AllDTypes {
				for _, id := range indexDTypes {
					idx := tensor.New(id, 1)
					c := probeCase(op.Name, tensor.Arg{Tensor: probeTensor(a)}, tensor.Arg{Tensor: idx})
					c.Attrs.Dim = new(int)
					if answers(c) {
						s.indexes[a] = append(s.indexes[a], id)
					}
				}
				if len(s.indexes[a]) > 0 {
					ds = append(ds, a)
				}
			}
		case tensor.ClassUnary, tensor.ClassReduce, tensor.ClassCumsum, tensor.ClassToHost:
			for _, a := range tensor.AllDTypes {
				c := probeCase(op.Name, tensor.Arg{Tensor: probeTensor(a)})
				switch op.Class {
				case tensor.ClassCumsum:
					c.Attrs.Dim = new(int)
				case tensor.ClassToHost:
					c.Attrs.DType, c.Attrs.Rank = a, new(int)
					*c.Attrs.Rank = 1
				}
				if answers(c) {
					ds = append(ds, a)
				}
			}
		case tensor.ClassBroadcast, tensor.ClassWhere, tensor.ClassClamp, tensor.ClassFull:
			ds = s.probeNew(op, answers) // gen_newops_a.go
		case tensor.ClassSort, tensor.ClassMaskSelect:
			ds = s.probeSort(op, answers) // gen_sort.go
		case tensor.ClassMatmul, tensor.ClassCat:
			ds = s.probeMatmulCat(op, answers) // gen_matmul.go
		default: // creation ops take no tensor: probe each dtype the op can be asked for
			ds = s.probeCreation(op, answers)
		}
		if len(ds) > 0 && op.Class != tensor.ClassFromLiteral && op.Class != tensor.ClassArange &&
			op.Class != tensor.ClassZeros && !isNewClass(op.Class) && !isMatmulCat(op.Class) && !s.answersRank0(op, ds[0], answers) {
			o.minRank = 1
		}
		if len(ds) > 0 {
			s.ops = append(s.ops, op.Name)
			o.dtypes = ds
		}
	}
	s.steps = s.answersSteppedView(answers)
	return s
}

// answersRank0 reports whether op answers a 0-dim input of dtype d (its
// probe of shape [2] answers).
func (s *support) answersRank0(op tensor.OpInfo, d tensor.DType, answers func(*tensor.Case) bool) bool {
	x := tensor.New(d)
	x.SetBits(0, probeTensor(d).Bits(0))
	c := probeCase(op.Name, tensor.Arg{Tensor: x})
	switch op.Class {
	case tensor.ClassBinary:
		c.Args = append(c.Args, tensor.Arg{Tensor: x})
		if o := s.of(op.Name); len(o.partners[d]) == 0 {
			c.Args[1] = tensor.Arg{Scalar: probeScalar(o.scalars[d][0].kind)}
		}
	case tensor.ClassCast:
		c.Attrs.To = s.casts[d][0]
	case tensor.ClassIndexSelect:
		c.Args = append(c.Args, tensor.Arg{Tensor: tensor.New(s.indexes[d][0], 1)})
		c.Attrs.Dim = new(int)
	case tensor.ClassCumsum:
		c.Attrs.Dim = new(int)
	case tensor.ClassMaskSelect:
		c.Args = append(c.Args, tensor.Arg{Tensor: tensor.New(s.masks[d][0])})
	case tensor.ClassToHost:
		c.Attrs.DType, c.Attrs.Rank = d, new(int)
	case tensor.ClassFromVec:
		c.Attrs.Shape = []int{}
	}
	return answers(c)
}

// probeCreation returns the dtypes for which a creation op answers (the
// zeros dtypes, the from_vec data dtypes; every dtype for the literal ops
// when one form answers), and records the literal forms, arange bound kinds
// and zeros variants that answer.
func (s *support) probeCreation(op tensor.OpInfo, answers func(*tensor.Case) bool) []tensor.DType {
	var ds []tensor.DType
	switch op.Class {
	case tensor.ClassZeros:
		for _, d := range tensor.AllDTypes {
			c := &tensor.Case{Op: op.Name, Attrs: tensor.Attrs{Shape: []int{2}, DType: d}}
			if answers(c) {
				ds = append(ds, d)
			}
		}
		s.zeros.noDType = answers(&tensor.Case{Op: op.Name, Attrs: tensor.Attrs{Shape: []int{2}}})
		s.zeros.rank0 = answers(&tensor.Case{Op: op.Name, Attrs: tensor.Attrs{Shape: []int{}}}) ||
			len(ds) > 0 && answers(&tensor.Case{Op: op.Name, Attrs: tensor.Attrs{Shape: []int{}, DType: ds[0]}})
		if s.zeros.noDType && len(ds) == 0 {
			ds = tensor.AllDTypes // the dtype attr is drawn one time in two only
		}
	case tensor.ClassFromVec:
		for _, d := range tensor.AllDTypes {
			c := probeCase(op.Name, tensor.Arg{Tensor: probeTensor(d)})
			c.Attrs.Shape = []int{2}
			if answers(c) {
				ds = append(ds, d)
			}
		}
	case tensor.ClassFromLiteral:
		sx := pythonSyntax
		if s.rust {
			sx = rustSyntax
		}
		for _, f := range litForms {
			text := f.probeText(sx)
			if answers(&tensor.Case{Op: op.Name, Attrs: tensor.Attrs{Literal: &text}}) {
				s.literals = append(s.literals, f)
			}
		}
		if len(s.literals) > 0 {
			ds = tensor.AllDTypes
		}
	case tensor.ClassArange:
		for _, k := range arangeKinds {
			bounds := map[litKind][2]string{litInt: {"0", "3"}, litFloat: {"0.0", "3.0"}, litMixed: {"0", "3.0"}}[k]
			start, end := bounds[0], bounds[1]
			if answers(&tensor.Case{Op: op.Name, Attrs: tensor.Attrs{Start: &start, End: &end}}) {
				s.aranges = append(s.aranges, k)
			}
		}
		if len(s.aranges) > 0 {
			ds = tensor.AllDTypes
		}
	}
	return ds
}

// probeTensor is the probe input of dtype d: [1, 2].
func probeTensor(d tensor.DType) *tensor.Tensor {
	x := tensor.New(d, 2)
	for i := 0; i < 2; i++ {
		if d.IsInt() || d == tensor.Bool {
			x.SetInt(i, int64(i+1))
		} else {
			x.SetFloat(i, float64(i+1))
		}
	}
	return x
}

func probeScalar(k tensor.ScalarKind) *tensor.Scalar {
	text := map[tensor.ScalarKind]string{tensor.ScalarInt: "2", tensor.ScalarFloat: "2.0", tensor.ScalarBool: "true",
		tensor.ScalarComplex: "2+1j"}[k]
	return &tensor.Scalar{Text: text, Kind: k}
}

func probeCase(op string, args ...tensor.Arg) *tensor.Case {
	return &tensor.Case{Op: op, Args: args}
}
