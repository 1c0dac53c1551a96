package tensor

import (
	"errors"
	"strings"
	"testing"
)

// specProgram is the example of the spec's section "Programs (format 2, added 2026-12)".
const specProgram = `{"id": "seed000-u8-cast-sum", "format": 2, "args": [{"dtype": "u8", "shape": [2], "data": [200, 100]}], ` +
	`"steps": [{"op": "cast", "args": [{"arg": 0}], "attrs": {"to": "i64"}}, {"op": "sum", "args": [{"step": 0}]}], ` +
	`"expect": {"candle/cpu-release": {"value": {"dtype": "i64", "shape": [], "data": [300]}}}}`

func TestProgramRoundTrip(t *testing.T) {
	c, err := DecodeCase([]byte(specProgram))
	if err != nil {
		t.Fatal(err)
	}
	if !c.IsProgram() || len(c.Steps) != 2 || c.Op != "" {
		t.Fatalf("decoded %+v", c)
	}
	if s := c.Steps[1].Args[0]; s.From != FromStep || s.Index != 0 {
		t.Errorf("step 1 reads %+v, want step 0", s)
	}
	if got := string(EncodeCase(c)); got != specProgram {
		t.Errorf("encoded\n%s\nwant\n%s", got, specProgram)
	}
	sc := c.StepCase(1, []*Tensor{New(I64, 2)})
	if sc.Op != "sum" || sc.Args[0].Tensor.DType != I64 || sc.IsProgram() {
		t.Errorf("step 1 bound: %s", sc.Describe())
	}
	if got, want := c.Describe(), "program(u8[2] [200, 100]): cast(arg0) to=i64; sum(step0)"; got != want {
		t.Errorf("Describe() = %q, want %q", got, want)
	}
}

func TestProgramLiteralsAndScalarInputs(t *testing.T) {
	line := `{"format": 2, "args": [{"dtype": "i32", "shape": [2], "data": [1, 2]}, {"scalar": "0.5", "kind": "float"}], ` +
		`"steps": [{"op": "mul", "args": [{"arg": 0}, {"arg": 1}]}, {"op": "add", "args": [{"step": 0}, {"dtype": "f32", "shape": [1], "data": ["1.0"]}]}, ` +
		`{"op": "sum", "args": [{"step": 1}], "attrs": {"dim": 0, "keepdim": true}}]}`
	c, err := DecodeCase([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(EncodeCase(c)); got != line {
		t.Errorf("encoded\n%s\nwant\n%s", got, line)
	}
	if !c.StepCase(0, nil).Args[1].IsScalar() {
		t.Error("a scalar program input is not a scalar operand of step 0")
	}
}

func TestProgramDecodeErrors(t *testing.T) {
	in := `"args": [{"dtype": "i64", "shape": [1], "data": [1]}, {"scalar": "2", "kind": "int"}]`
	prog := func(steps string) string { return `{"format": 2, ` + in + `, "steps": ` + steps + `}` }
	tests := []struct{ name, line, field, msg string }{
		{"a step reads a later step", prog(`[{"op": "neg", "args": [{"step": 1}]}, {"op": "neg", "args": [{"arg": 0}]}]`), "steps[0].args[0].step", "not an earlier step"},
		{"a step reads itself", prog(`[{"op": "neg", "args": [{"arg": 0}]}, {"op": "neg", "args": [{"step": 1}]}]`), "steps[1].args[0].step", "not an earlier step"},
		{"arg index out of range", prog(`[{"op": "neg", "args": [{"arg": 2}]}]`), "steps[0].args[0].arg", "program input 2 does not exist (the program has 2 args)"},
		{"negative arg index", prog(`[{"op": "neg", "args": [{"arg": -1}]}]`), "steps[0].args[0].arg", "does not exist"},
		{"unknown op in a step", prog(`[{"op": "matmull", "args": [{"arg": 0}]}]`), "steps[0].op", "unknown op"},
		{"a scalar input where a tensor belongs", prog(`[{"op": "neg", "args": [{"arg": 1}]}]`), "steps[0].args[0]", "takes tensors only"},
		{"arity", prog(`[{"op": "add", "args": [{"arg": 0}]}]`), "steps[0].args", "add takes 2 args, got 1"},
		{"attrs of a step", prog(`[{"op": "neg", "args": [{"arg": 0}], "attrs": {"dim": 0}}]`), "steps[0].attrs.dim", "takes no attr"},
		{"required attr of a step", prog(`[{"op": "cast", "args": [{"arg": 0}]}]`), "steps[0].attrs.to", "cast needs attr to"},
		{"reading a to_host result", prog(`[{"op": "to_host", "args": [{"arg": 0}], "attrs": {"dtype": "i64"}}, {"op": "neg", "args": [{"step": 0}]}]`), "steps[1].args[0].step", "host data"},
		{"a reference with more fields", prog(`[{"op": "neg", "args": [{"arg": 0, "step": 0}]}]`), "steps[0].args[0]", "alone"},
		{"no steps", prog(`[]`), "steps", "at least one step"},
		{"unknown step field", prog(`[{"op": "neg", "args": [{"arg": 0}], "dim": 0}]`), "steps[0].dim", "unknown step field"},
		{"format 2 with op", `{"format": 2, "op": "neg", ` + in + `, "steps": [{"op": "neg", "args": [{"arg": 0}]}]}`, "op", "steps instead of op"},
		{"format 2 without steps", `{"format": 2, ` + in + `}`, "steps", "missing"},
		{"steps without format 2", `{` + in + `, "steps": [{"op": "neg", "args": [{"arg": 0}]}]}`, "format", `needs "format": 2`},
		{"unknown format", `{"format": 3, "op": "neg", ` + in + `}`, "format", "unknown case format 3"},
		{"attrs on a program", `{"format": 2, ` + in + `, "attrs": {}, "steps": [{"op": "neg", "args": [{"arg": 0}]}]}`, "attrs", "on its steps"},
		{"a bad literal in a step", prog(`[{"op": "add", "args": [{"arg": 0}, {"dtype": "u8", "shape": [1], "data": [256]}]}]`), "steps[0].args[1].data[0]", "u8 range"},
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
