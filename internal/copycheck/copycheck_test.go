package copycheck

import (
	"os"
	"strings"
	"testing"
)

// original is the reference side of the synthetic rows: a rule long enough
// (over MinNear tokens) that a copy of it is a copy, not a coincidence.
const original = `package ref

import "strings"

func clampIndex(idx []int, n int, wrap bool) (out []int, bad int) {
	out = make([]int, len(idx))
	for i, v := range idx {
		if v < 0 && wrap {
			v += n
		}
		if v < 0 || v >= n {
			return nil, i
		}
		out[i] = v
	}
	return out, -1
}

func size(s []int) int { return len(s) }

func label(name string) string {
	return strings.ToUpper(name[:1]) + name[1:]
}
`

func TestFind(t *testing.T) {
	tests := []struct {
		name   string
		copy   string
		want   []string // "ref func ~ copy func" of each pair found
		reason string
	}{
		{
			name: "renamed copy",
			copy: `package impl
func fixIdx(ix []int, size int, neg bool) (res []int, where int) {
	res = make([]int, len(ix))
	for k, x := range ix {
		if x < 0 && neg {
			x += size
		}
		if x < 0 || x >= size {
			return nil, k
		}
		res[k] = x
	}
	return res, -1
}`,
			want:   []string{"clampIndex ~ fixIdx"},
			reason: "identifiers renamed, every statement kept: equal normalized bodies",
		},
		{
			name: "renamed copy with small edits",
			copy: `package impl
// a comment the original does not have
func fixIdx(ix []int, size int, neg bool) ([]int, int) {
	res := make([]int, len(ix))
	for k, x := range ix {
		if neg && x < 0 {
			x = x + size
		}
		if x < 0 || x >= size {
			return nil, k // out of range
		}
		res[k] = (x)
	}
	return res, -2
}`,
			want:   []string{"clampIndex ~ fixIdx"},
			reason: "operands swapped, += spelled out, a constant changed, comments and parentheses added",
		},
		{
			name: "independent code for the same rule",
			copy: `package impl
func fixIdx(ix []int, size int, neg bool) ([]int, int) {
	lo := 0
	if neg {
		lo = -size
	}
	res := append([]int(nil), ix...)
	for k := range res {
		switch x := res[k]; {
		case x < lo, x >= size:
			return nil, k
		case x < 0:
			res[k] = x + size
		}
	}
	return res, -1
}`,
			reason: "another structure: a bound computed once, a copy then fixed in place",
		},
		{
			name: "trivial bodies",
			copy: `package impl
import "strings"
func count(v []int) int { return len(v) }
func title(s string) string {
	return strings.ToUpper(s[:1]) + s[1:]
}`,
			reason: "one-liners are written alike by anyone; below MinEqual tokens",
		},
	}
	ref, err := Parse("ref.go", []byte(original))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			other, err := Parse("impl.go", []byte(tt.copy))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range Find(ref, other) {
				got = append(got, p.Ref.Name+" ~ "+p.Copy.Name)
			}
			if strings.Join(got, "; ") != strings.Join(tt.want, "; ") {
				t.Errorf("found %q, want %q (%s)", got, tt.want, tt.reason)
			}
		})
	}
}

// TestCheckListsEveryPair: the checker's one error names every pair, not the
// first only (testing/fstest style).
func TestCheckListsEveryPair(t *testing.T) {
	ref, err := Parse("ref.go", []byte(original))
	if err != nil {
		t.Fatal(err)
	}
	body := original[strings.Index(original, "(idx"):strings.Index(original, "func size")]
	other, err := Parse("impl.go", []byte("package impl\nfunc one"+body+"\nfunc two"+body))
	if err != nil {
		t.Fatal(err)
	}
	err = Check(ref, other)
	if err == nil {
		t.Fatal("Check found no copy of a verbatim copy")
	}
	for _, want := range []string{"ref.go:clampIndex ~ impl.go:one", "ref.go:clampIndex ~ impl.go:two"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error does not list %q:\n%v", want, err)
		}
	}
	if Check(ref, ref[1:2]) != nil {
		t.Error("Check reports a one-liner")
	}
}

func TestNormalize(t *testing.T) {
	fs, err := Parse("a.go", []byte(`package a
import m "math"
func f(x float64) float64 {
	// dropped
	y := m.Abs((x)) + 1.5
	return y * x
}`))
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(fs[0].Tokens, " ")
	want := "BlockStmt Assign:= $0 Binary+ CallExpr m.Abs $1 FLOAT:1.5 ReturnStmt Binary* $0 $1 }"
	if got != want {
		t.Errorf("tokens\n%s\nwant\n%s", got, want)
	}
}

// TestModelBodiesStayOutOfImpls enforces DESIGN.md's rule that the model and
// the implementations share no semantic code through a copy (the import
// rule is model/deps_test.go's): no function body of model/ reappears,
// renamed or lightly edited, in impls/cpu, impls/metal or impls/adapter.
func TestModelBodiesStayOutOfImpls(t *testing.T) {
	root := os.DirFS("../..")
	model, err := Load(root, "model")
	if err != nil {
		t.Fatal(err)
	}
	impls, err := Load(root, "impls/cpu", "impls/metal", "impls/adapter")
	if err != nil {
		t.Fatal(err)
	}
	if len(model) < 100 || len(impls) < 100 {
		t.Fatalf("read %d model and %d implementation functions: the trees are missing", len(model), len(impls))
	}
	if err := Check(model, impls); err != nil {
		t.Error(err)
	}
}
