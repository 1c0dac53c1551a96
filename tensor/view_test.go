package tensor

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// specView is the example of the spec's section "Views (added 2026-12)".
const specView = `{"op": "neg", "args": [{"dtype": "f32", "shape": [2, 2], "data": ["1.0", "2.0", "3.0", "4.0", "5.0", "6.0"], ` +
	`"view": {"base": [2, 3], "permute": [1, 0], "slice": [[0, 3, 2], [0, 2, 1]]}}], "attrs": {}}`

func TestViewDecodesToStridedTensor(t *testing.T) {
	tests := []struct {
		name          string
		line          string
		shape, stride []int
		offset        int
		elems         []float64
	}{
		{"the spec's example: transpose, then every other row", specView,
			[]int{2, 2}, []int{2, 3}, 0, []float64{1, 4, 3, 6}},
		{"an offset slice", `{"op": "neg", "args": [{"dtype": "f64", "shape": [2], "data": ["1.0", "2.0", "3.0", "4.0"], "view": {"base": [4], "slice": [[1, 4, 2]]}}]}`,
			[]int{2}, []int{2}, 1, []float64{2, 4}},
		{"expand: zero strides, a new leading dim", `{"op": "neg", "args": [{"dtype": "f64", "shape": [2, 2, 3], "data": ["1.0", "2.0", "3.0"], "view": {"base": [1, 3], "expand": [2, 2, 3]}}]}`,
			[]int{2, 2, 3}, []int{0, 0, 1}, 0, []float64{1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3}},
		{"an empty slice", `{"op": "neg", "args": [{"dtype": "f64", "shape": [0], "data": ["1.0", "2.0"], "view": {"base": [2], "slice": [[2, 2, 1]]}}]}`,
			[]int{0}, []int{1}, 2, nil},
		{"identity steps", `{"op": "neg", "args": [{"dtype": "f64", "shape": [2], "data": ["1.0", "2.0"], "view": {"base": [2], "permute": [0]}}]}`,
			[]int{2}, []int{1}, 0, []float64{1, 2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := DecodeCase([]byte(tt.line))
			if err != nil {
				t.Fatal(err)
			}
			x := c.Args[0].Tensor
			if !slices.Equal(x.Shape, tt.shape) || !slices.Equal(x.Strides, tt.stride) || x.Offset != tt.offset {
				t.Fatalf("shape %v strides %v offset %d, want %v %v %d", x.Shape, x.Strides, x.Offset, tt.shape, tt.stride, tt.offset)
			}
			var got []float64
			for i := 0; i < x.Len(); i++ {
				got = append(got, x.Float(i))
			}
			if !slices.Equal(got, tt.elems) {
				t.Errorf("logical elements %v, want %v", got, tt.elems)
			}
			if !x.IsView() {
				t.Fatal("the decoded tensor does not keep its view")
			}
			again, err := DecodeCase(EncodeCase(c))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(EncodeCase(again), EncodeCase(c)) {
				t.Errorf("not idempotent:\n%s\n%s", EncodeCase(c), EncodeCase(again))
			}
		})
	}
}

func TestViewEncodesAsRead(t *testing.T) {
	c, err := DecodeCase([]byte(specView))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(EncodeCase(c)); got != specView {
		t.Errorf("encoded\n%s\nwant\n%s", got, specView)
	}
	// Outcomes are contiguous: a view handed back as a value is written by its elements.
	o := ValueOutcome(c.Args[0].Tensor)
	if got, want := string(EncodeOutcome(o)), `{"value": {"dtype": "f32", "shape": [2, 2], "data": ["1.0", "4.0", "3.0", "6.0"]}}`; got != want {
		t.Errorf("a view as an outcome: %s, want %s", got, want)
	}
	// A tensor whose layout no longer matches its View is written contiguous.
	x := c.Args[0].Tensor.CloneLayout()
	x.Strides = []int{3, 2}
	if strings.Contains(string(EncodeTensor(x)), "view") {
		t.Errorf("a stale view was written: %s", EncodeTensor(x))
	}
}

func TestViewDecodeErrors(t *testing.T) {
	view := func(shape, data, v string) string {
		return `{"op": "neg", "args": [{"dtype": "i64", "shape": ` + shape + `, "data": ` + data + `, "view": ` + v + `}]}`
	}
	tests := []struct{ name, line, field, msg string }{
		{"steps do not produce shape", view("[3, 2]", "[1, 2, 3, 4, 5, 6]", `{"base": [2, 3]}`), "args[0].shape", "not the shape the view produces ([2 3])"},
		{"storage too short", view("[2, 3]", "[1, 2, 3]", `{"base": [2, 3]}`), "args[0].data", "has 3 elements, view.base [2 3] needs 6"},
		{"bad permutation", view("[2, 3]", "[1, 2, 3, 4, 5, 6]", `{"base": [2, 3], "permute": [0, 0]}`), "args[0].view.permute", "not a permutation"},
		{"permutation of the wrong rank", view("[2, 3]", "[1, 2, 3, 4, 5, 6]", `{"base": [2, 3], "permute": [0]}`), "args[0].view.permute", "not a permutation"},
		{"slice past the end", view("[2]", "[1, 2, 3]", `{"base": [3], "slice": [[0, 4, 2]]}`), "args[0].view.slice[0]", "out of range"},
		{"slice start after stop", view("[0]", "[1, 2, 3]", `{"base": [3], "slice": [[2, 1, 1]]}`), "args[0].view.slice[0]", "out of range"},
		{"slice step 0", view("[0]", "[1, 2, 3]", `{"base": [3], "slice": [[0, 3, 0]]}`), "args[0].view.slice[0]", "step >= 1"},
		{"slice of the wrong rank", view("[3]", "[1, 2, 3]", `{"base": [3], "slice": [[0, 3, 1], [0, 1, 1]]}`), "args[0].view.slice", "has 2 entries"},
		{"slice not a triple", view("[3]", "[1, 2, 3]", `{"base": [3], "slice": [[0, 3]]}`), "args[0].view.slice[0]", "want [start, stop, step]"},
		{"expand of a dim not 1", view("[4]", "[1, 2, 3]", `{"base": [3], "expand": [4]}`), "args[0].view.expand", "cannot broadcast"},
		{"expand to fewer dims", view("[3]", "[1, 2, 3]", `{"base": [1, 3], "expand": [3]}`), "args[0].view.expand", "fewer dims"},
		{"expand past 2^24 elements", view("[1]", "[1]", `{"base": [1], "expand": [4096, 4096, 2]}`), "args[0].view.expand", "more than 2^24"},
		{"missing base", view("[3]", "[1, 2, 3]", `{"permute": [0]}`), "args[0].view.base", "missing"},
		{"unknown view field", view("[3]", "[1, 2, 3]", `{"base": [3], "stride": [1]}`), "args[0].view.stride", "unknown view field"},
		{"a view in an outcome", `{"op": "neg", "args": [{"dtype": "i64", "shape": [1], "data": [1]}], "expect": {"numpy": {"value": {"dtype": "i64", "shape": [1], "data": [1], "view": {"base": [1]}}}}}`,
			"expect.numpy.value.view", "outcomes are written contiguous"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeCase([]byte(tt.line))
			var de *DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("got %v, want a *DecodeError", err)
			}
			if de.Field != tt.field || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("got field %q, error %q; want field %q containing %q", de.Field, err, tt.field, tt.msg)
			}
		})
	}
}

// TestV1EncodingUnchanged: every corpus line is written by this codec
// exactly as the v1 codec (before views and programs) wrote it, byte for
// byte. testdata/v1-encodings.txt holds, for each line the corpus had
// then, a hash of the line and of its v1 encoding; lines added since are
// checked by the round trip below.
func TestV1EncodingUnchanged(t *testing.T) {
	golden := map[string]string{}
	data, err := os.ReadFile("testdata/v1-encodings.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(l, " "); ok && !strings.HasPrefix(l, "#") {
			golden[k] = v
		}
	}
	files, _ := filepath.Glob("../corpus/*/*.jsonl")
	if len(files) == 0 || len(golden) == 0 {
		t.Fatalf("no corpus files (%d) or no golden hashes (%d)", len(files), len(golden))
	}
	hash := func(b []byte) string { h := sha256.Sum256(b); return fmt.Sprintf("%x", h[:8]) }
	checked := 0
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(raw))
		sc.Buffer(nil, MaxLineBytes+1)
		for n := 1; sc.Scan(); n++ {
			line := bytes.TrimSpace(sc.Bytes())
			if len(line) == 0 {
				continue
			}
			c, err := DecodeCase(line)
			if err != nil {
				t.Fatalf("%s:%d: %v", f, n, err)
			}
			enc := EncodeCase(c)
			if want, ok := golden[hash(line)]; ok {
				checked++
				if got := hash(enc); got != want {
					t.Errorf("%s:%d: the encoding changed:\n%s", f, n, enc)
				}
			}
			back, err := DecodeCase(enc)
			if err != nil || !bytes.Equal(EncodeCase(back), enc) {
				t.Errorf("%s:%d: does not round-trip (%v)", f, n, err)
			}
		}
	}
	if checked < len(golden)*9/10 {
		t.Errorf("only %d of the %d golden lines are still in the corpus", checked, len(golden))
	}
}
