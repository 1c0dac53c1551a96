package mutate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/build"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// A Mutant is one change of one token of one file.
type Mutant struct {
	ID     string // file:func:from→to#n, stable while the function is unchanged
	File   string // absolute path of the mutated file
	Line   int
	Offset int    // byte offset of the replaced text in the file
	Old    string // the replaced text
	New    string // its replacement
	Kind   string // the operator's family (arithmetic, boundary, ...)
}

func (m Mutant) String() string {
	return fmt.Sprintf("%s (line %d: %q → %q)", m.ID, m.Line, m.Old, m.New)
}

// Apply returns the file's source with the mutant's change.
func (m Mutant) Apply(src []byte) ([]byte, error) {
	end := m.Offset + len(m.Old)
	if end > len(src) || string(src[m.Offset:end]) != m.Old {
		return nil, fmt.Errorf("%s: the source changed since the mutant was listed", m.ID)
	}
	out := make([]byte, 0, len(src)+len(m.New))
	out = append(out, src[:m.Offset]...)
	out = append(out, m.New...)
	return append(out, src[end:]...), nil
}

// binaryMutations lists, per operator, its replacements and their family.
var binaryMutations = map[token.Token][]struct {
	to   token.Token
	kind string
}{
	token.ADD:     {{token.SUB, "arithmetic"}},
	token.SUB:     {{token.ADD, "arithmetic"}},
	token.MUL:     {{token.QUO, "arithmetic"}},
	token.QUO:     {{token.MUL, "arithmetic"}},
	token.REM:     {{token.MUL, "arithmetic"}},
	token.LSS:     {{token.LEQ, "boundary"}, {token.GEQ, "negation"}},
	token.LEQ:     {{token.LSS, "boundary"}, {token.GTR, "negation"}},
	token.GTR:     {{token.GEQ, "boundary"}, {token.LEQ, "negation"}},
	token.GEQ:     {{token.GTR, "boundary"}, {token.LSS, "negation"}},
	token.EQL:     {{token.NEQ, "negation"}},
	token.NEQ:     {{token.EQL, "negation"}},
	token.LAND:    {{token.LOR, "logical"}},
	token.LOR:     {{token.LAND, "logical"}},
	token.AND:     {{token.OR, "bitwise"}},
	token.OR:      {{token.AND, "bitwise"}},
	token.XOR:     {{token.AND, "bitwise"}},
	token.AND_NOT: {{token.AND, "bitwise"}},
	token.SHL:     {{token.SHR, "bitwise"}},
	token.SHR:     {{token.SHL, "bitwise"}},
}

// assignMutations are the op= forms of the arithmetic and bitwise mutations.
var assignMutations = map[token.Token]token.Token{
	token.ADD_ASSIGN: token.SUB_ASSIGN, token.SUB_ASSIGN: token.ADD_ASSIGN,
	token.MUL_ASSIGN: token.QUO_ASSIGN, token.QUO_ASSIGN: token.MUL_ASSIGN,
	token.REM_ASSIGN: token.MUL_ASSIGN,
	token.AND_ASSIGN: token.OR_ASSIGN, token.OR_ASSIGN: token.AND_ASSIGN,
	token.XOR_ASSIGN: token.AND_ASSIGN,
	token.SHL_ASSIGN: token.SHR_ASSIGN, token.SHR_ASSIGN: token.SHL_ASSIGN,
}

// Sites lists every mutant of the Go package in dir (its non-test files
// that the default build context selects), in file and source order.
func Sites(dir string) ([]Mutant, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	files, names, err := parseBuilt(fset, dir)
	if err != nil {
		return nil, err
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	imp, err := exportImporter(fset, dir)
	if err != nil {
		return nil, err
	}
	conf := types.Config{Importer: imp, Error: func(error) {}}
	if _, err := conf.Check(filepath.Base(dir), fset, files, info); err != nil {
		return nil, fmt.Errorf("type-checking %s: %w", dir, err)
	}
	var all []Mutant
	for i, f := range files {
		all = append(all, fileSites(fset, f, names[i], info)...)
	}
	return all, nil
}

// parseBuilt parses the package's non-test files that the build selects.
func parseBuilt(fset *token.FileSet, dir string) ([]*ast.File, []string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, err
	}
	var files []*ast.File
	var names []string
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		if ok, err := build.Default.MatchFile(dir, name); err != nil || !ok {
			continue
		}
		path := filepath.Join(dir, name)
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, nil, err
		}
		files = append(files, f)
		names = append(names, path)
	}
	return files, names, nil
}

// exportImporter imports the package's dependencies from the export data
// the go command keeps in its build cache (go list -export).
func exportImporter(fset *token.FileSet, dir string) (types.Importer, error) {
	cmd := exec.Command("go", "list", "-export", "-deps", "-json=ImportPath,Export", ".")
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list -export in %s: %w", dir, err)
	}
	exports := map[string]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct{ ImportPath, Export string }
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		exports[p.ImportPath] = p.Export
	}
	return importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		if f, ok := exports[path]; ok && f != "" {
			return os.Open(f)
		}
		return nil, fmt.Errorf("no export data for %s", path)
	}), nil
}

// fileSites walks one file's functions and lists their mutants.
func fileSites(fset *token.FileSet, f *ast.File, path string, info *types.Info) []Mutant {
	var out []Mutant
	base := filepath.Base(path)
	for _, decl := range f.Decls {
		name := declName(decl)
		var sites []Mutant
		add := func(pos token.Pos, old, new, kind string) {
			p := fset.Position(pos)
			sites = append(sites, Mutant{File: path, Line: p.Line, Offset: p.Offset, Old: old, New: new, Kind: kind})
		}
		var visit func(ast.Node) bool
		visit = func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.IfStmt:
				if isZooGuard(n.Cond) { // the bug zoo's own code
					if n.Else != nil {
						ast.Inspect(n.Else, visit)
					}
					return false
				}
			case *ast.BinaryExpr:
				if isZooGuard(n) {
					return false
				}
				if !mutableOperands(info, n) {
					return true
				}
				for _, m := range binaryMutations[n.Op] {
					add(n.OpPos, n.Op.String(), m.to.String(), m.kind)
				}
			case *ast.AssignStmt:
				if to, ok := assignMutations[n.Tok]; ok {
					add(n.TokPos, n.Tok.String(), to.String(), "arithmetic")
				}
			case *ast.IncDecStmt:
				to := token.DEC
				if n.Tok == token.DEC {
					to = token.INC
				}
				add(n.TokPos, n.Tok.String(), to.String(), "step")
			case *ast.UnaryExpr:
				switch n.Op {
				case token.SUB:
					add(n.OpPos, "-", " ", "sign")
				case token.NOT:
					add(n.OpPos, "!", " ", "logical")
				case token.XOR:
					add(n.OpPos, "^", " ", "bitwise")
				}
			case *ast.BasicLit:
				if n.Kind == token.INT {
					if v, ok := intLiteral(n.Value); ok {
						add(n.ValuePos, n.Value, strconv.FormatUint(bump(v), 10), "constant")
					}
				}
			case *ast.CallExpr:
				if isPanicOrErrorf(n) {
					return false // messages: a changed message is no changed semantics
				}
			}
			return true
		}
		ast.Inspect(decl, visit)
		// IDs number each kind of change in source order within the
		// declaration (the walk visits an outer operator before the inner
		// ones to its left)
		sort.SliceStable(sites, func(i, j int) bool { return sites[i].Offset < sites[j].Offset })
		ordinal := map[string]int{}
		for _, m := range sites {
			key := m.Old + "→" + m.New
			if strings.TrimSpace(m.New) == "" {
				key = m.Old + "→∅" // a removed token (a space keeps the columns)
			}
			ordinal[key]++
			m.ID = fmt.Sprintf("%s:%s:%s#%d", base, name, key, ordinal[key])
			out = append(out, m)
		}
	}
	return out
}

// declName names a top-level declaration: a function (Type.Method for a
// method) or the first name of a var/const/type group.
func declName(d ast.Decl) string {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv != nil && len(d.Recv.List) == 1 {
			return recvName(d.Recv.List[0].Type) + "." + d.Name.Name
		}
		return d.Name.Name
	case *ast.GenDecl:
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.ValueSpec:
				return s.Names[0].Name
			case *ast.TypeSpec:
				return s.Name.Name
			}
		}
	}
	return "_"
}

func recvName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return recvName(e.X)
	case *ast.IndexExpr:
		return recvName(e.X)
	case *ast.IndexListExpr:
		return recvName(e.X)
	case *ast.Ident:
		return e.Name
	}
	return "_"
}

// isZooGuard reports whether cond is the bug zoo's guard (zooBuild && ...).
func isZooGuard(cond ast.Expr) bool {
	for {
		switch c := cond.(type) {
		case *ast.Ident:
			return c.Name == "zooBuild"
		case *ast.BinaryExpr:
			if c.Op != token.LAND {
				return false
			}
			cond = c.X
		case *ast.ParenExpr:
			cond = c.X
		default:
			return false
		}
	}
}

// mutableOperands reports whether a binary expression's operator can be
// mutated: == and != on any operands, the others on numbers and booleans
// only (no string concatenation).
func mutableOperands(info *types.Info, e *ast.BinaryExpr) bool {
	if e.Op == token.EQL || e.Op == token.NEQ {
		return true
	}
	tv, ok := info.Types[e.X]
	if !ok || tv.Type == nil {
		return false
	}
	b, ok := tv.Type.Underlying().(*types.Basic)
	return ok && b.Info()&(types.IsNumeric|types.IsBoolean) != 0
}

// isPanicOrErrorf reports calls that only build messages.
func isPanicOrErrorf(c *ast.CallExpr) bool {
	switch f := c.Fun.(type) {
	case *ast.Ident:
		return f.Name == "panic"
	case *ast.SelectorExpr:
		if x, ok := f.X.(*ast.Ident); ok && x.Name == "fmt" {
			return strings.HasPrefix(f.Sel.Name, "Errorf") || strings.HasPrefix(f.Sel.Name, "Sprint")
		}
	}
	return false
}

func intLiteral(s string) (uint64, bool) {
	v, err := strconv.ParseUint(strings.ReplaceAll(s, "_", ""), 0, 64)
	return v, err == nil && v < 1<<62
}

// bump is the constant mutation: 0 → 1, 1 → 0, n → n+1.
func bump(v uint64) uint64 {
	switch v {
	case 0:
		return 1
	case 1:
		return 0
	}
	return v + 1
}
