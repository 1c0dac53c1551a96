package copycheck

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// The limits of a copy, set from measurements on this repository's model
// and engine. A body of a few tokens ("return x.Len()" is 6, a sign
// function 20) is written alike by anyone, so bodies shorter than MinEqual
// tokens (about three statements) are never compared, and an equal
// normalized body of that size is a copy. Similarity is the Dice
// coefficient of the longest common subsequence, 2·LCS/(len a + len b).
// Below 40 tokens it says little: unrelated bodies (two loops collecting
// names) reached 0.87 there, so short bodies count only when equal. From
// MinNear tokens on, the engine's renamed copies with small edits (messages
// built with + instead of Sprintf, a string operand replaced by a constant,
// a loop folded into ||) scored 0.70 to 0.99 (rlType 0.73, tfPromote 0.74,
// candleAffineCoefficients 0.76), and the closest pair of different
// functions 0.69 (the model's candle zeros against the engine's burn zeros:
// two ops that check a dtype and build zeros). Threshold sits between them.
// A copy edited further falls below it (two translations scored 0.68 and
// 0.69): the check is a tripwire for copies, not a proof of independence.
const (
	MinEqual  = 24
	MinNear   = 40
	Threshold = 0.70
)

// Func is one function or method body, normalized.
type Func struct {
	File   string // the file, as named to Load
	Name   string // "name" or "Recv.name"
	Tokens []string
}

// Pair is a function of the reference tree whose body reappears in another.
type Pair struct {
	Ref, Copy  Func
	Similarity float64 // 1 for equal bodies
}

func (p Pair) String() string {
	return fmt.Sprintf("%s:%s ~ %s:%s (similarity %.2f, %d and %d tokens)",
		p.Ref.File, p.Ref.Name, p.Copy.File, p.Copy.Name, p.Similarity, len(p.Ref.Tokens), len(p.Copy.Tokens))
}

// Load reads the non-test Go files under each root of fsys (recursively) and
// returns their function bodies.
func Load(fsys fs.FS, roots ...string) ([]Func, error) {
	var funcs []Func
	for _, root := range roots {
		err := fs.WalkDir(fsys, root, func(name string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || path.Ext(name) != ".go" || strings.HasSuffix(name, "_test.go") {
				return err
			}
			src, err := fs.ReadFile(fsys, name)
			if err != nil {
				return err
			}
			fs, err := Parse(name, src)
			funcs = append(funcs, fs...)
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("copycheck: %w", err)
		}
	}
	return funcs, nil
}

// Parse returns the function bodies of one Go source file.
func Parse(filename string, src []byte) ([]Func, error) {
	f, err := parser.ParseFile(token.NewFileSet(), filename, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	imports := map[string]bool{}
	for _, im := range f.Imports {
		name := strings.Trim(im.Path.Value, `"`)
		name = name[strings.LastIndex(name, "/")+1:]
		if im.Name != nil {
			name = im.Name.Name
		}
		imports[name] = true
	}
	var funcs []Func
	for _, decl := range f.Decls {
		fd, ok := decl.(*ast.FuncDecl)
		if !ok || fd.Body == nil {
			continue
		}
		name := fd.Name.Name
		if fd.Recv != nil && len(fd.Recv.List) == 1 {
			name = recvName(fd.Recv.List[0].Type) + "." + name
		}
		funcs = append(funcs, Func{File: filename, Name: name, Tokens: normalize(fd.Body, imports)})
	}
	return funcs, nil
}

func recvName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return recvName(t.X)
	case *ast.IndexExpr:
		return recvName(t.X)
	case *ast.IndexListExpr:
		return recvName(t.X)
	case *ast.Ident:
		return t.Name
	}
	return "?"
}

// normalize is the token sequence of body: node kinds with their operators
// in preorder, a "}" where a block ends, identifiers as placeholders $0, $1,
// ... in order of first appearance. Predeclared names (len, int, nil) and
// names qualified by an imported package (math.Abs, tensor.F32) are kept:
// they are vocabulary, not choices of the author.
func normalize(body *ast.BlockStmt, imports map[string]bool) []string {
	var toks []string
	ids := map[string]int{}
	var stack []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			if _, ok := stack[len(stack)-1].(*ast.BlockStmt); ok {
				toks = append(toks, "}")
			}
			stack = stack[:len(stack)-1]
			return true
		}
		switch n := n.(type) {
		case *ast.CommentGroup, *ast.Comment:
			return false
		case *ast.ParenExpr:
			// formatting, not structure; still pushed for the pop below
		case *ast.Ident:
			switch {
			case types.Universe.Lookup(n.Name) != nil:
				toks = append(toks, n.Name)
			default:
				if _, ok := ids[n.Name]; !ok {
					ids[n.Name] = len(ids)
				}
				toks = append(toks, fmt.Sprintf("$%d", ids[n.Name]))
			}
		case *ast.SelectorExpr:
			if x, ok := n.X.(*ast.Ident); ok && imports[x.Name] {
				toks = append(toks, x.Name+"."+n.Sel.Name)
				return false
			}
			toks = append(toks, "Sel")
		case *ast.BasicLit:
			if n.Kind == token.STRING {
				toks = append(toks, "STRING")
			} else {
				toks = append(toks, n.Kind.String()+":"+n.Value)
			}
			return false
		case *ast.BinaryExpr:
			toks = append(toks, "Binary"+n.Op.String())
		case *ast.UnaryExpr:
			toks = append(toks, "Unary"+n.Op.String())
		case *ast.AssignStmt:
			toks = append(toks, "Assign"+n.Tok.String())
		case *ast.IncDecStmt:
			toks = append(toks, "IncDec"+n.Tok.String())
		case *ast.BranchStmt:
			toks = append(toks, "Branch"+n.Tok.String())
		default:
			toks = append(toks, strings.TrimPrefix(fmt.Sprintf("%T", n), "*ast."))
		}
		stack = append(stack, n)
		return true
	})
	return toks
}

// Find returns every pair of a function of ref and a function of other whose
// bodies are equal (at least MinEqual tokens) or near (at least MinNear
// tokens, similarity at least Threshold), most similar first.
func Find(ref, other []Func) []Pair {
	var pairs []Pair
	for _, a := range ref {
		for _, b := range other {
			if s, ok := similar(a.Tokens, b.Tokens); ok {
				pairs = append(pairs, Pair{Ref: a, Copy: b, Similarity: s})
			}
		}
	}
	sort.SliceStable(pairs, func(i, j int) bool { return pairs[i].Similarity > pairs[j].Similarity })
	return pairs
}

// Check is Find as one error listing every pair, nil when there is none.
func Check(ref, other []Func) error {
	pairs := Find(ref, other)
	if len(pairs) == 0 {
		return nil
	}
	lines := make([]string, len(pairs))
	for i, p := range pairs {
		lines[i] = "\t" + p.String()
	}
	return errors.New("copycheck: function bodies reappear:\n" + strings.Join(lines, "\n"))
}

// similar reports whether a and b are a copy, with their similarity.
func similar(a, b []string) (float64, bool) {
	short := min(len(a), len(b))
	if short < MinEqual {
		return 0, false
	}
	if equal(a, b) {
		return 1, true
	}
	total := float64(len(a) + len(b))
	// cheap bounds first: the LCS is at most the shorter body and at most
	// the multiset intersection of the two
	if short < MinNear || 2*float64(short)/total < Threshold {
		return 0, false
	}
	if 2*float64(bagOverlap(a, b))/total < Threshold {
		return 0, false
	}
	s := 2 * float64(lcs(a, b)) / total
	return s, s >= Threshold
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// bagOverlap is the size of the multiset intersection of a and b.
func bagOverlap(a, b []string) int {
	count := make(map[string]int, len(a))
	for _, t := range a {
		count[t]++
	}
	n := 0
	for _, t := range b {
		if count[t] > 0 {
			count[t]--
			n++
		}
	}
	return n
}

// lcs is the length of a longest common subsequence of a and b, by the
// textbook dynamic program over two rows.
func lcs(a, b []string) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			switch {
			case a[i] == b[j]:
				cur[j+1] = prev[j] + 1
			case prev[j+1] >= cur[j]:
				cur[j+1] = prev[j+1]
			default:
				cur[j+1] = cur[j]
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
