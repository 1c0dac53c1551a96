package tensor

import (
	"math"
	"testing"
)

func floats(d DType, xs ...float64) *Tensor {
	t := New(d, len(xs))
	for i, x := range xs {
		t.SetFloat(i, x)
	}
	return t
}

func TestCompare(t *testing.T) {
	negZero := math.Copysign(0, -1)
	unspec := floats(F32, 1, 0)
	unspec.SetUnspecified(1)
	ints := New(I64, 2)
	ints.SetInt(0, -3)
	tests := []struct {
		name       string
		want, got  Outcome
		tol        int
		divergence Divergence
		through    int
	}{
		{"equal floats", ValueOutcome(floats(F32, 1, 2)), ValueOutcome(floats(F32, 1, 2)), 0, Same, 0},
		{"any NaN matches any NaN", ValueOutcome(floats(F64, math.NaN())), ValueOutcome(floats(F64, -math.NaN())), 0, Same, 0},
		{"NaN against a number", ValueOutcome(floats(F64, math.NaN())), ValueOutcome(floats(F64, 1)), 0, DiffNaN, 0},
		{"-0 does not match 0", ValueOutcome(floats(F32, negZero)), ValueOutcome(floats(F32, 0)), 0, DiffZeroSign, 0},
		{"one ulp", ValueOutcome(floats(F32, 1)), ValueOutcome(floats(F32, float64(math.Nextafter32(1, 2)))), 0, DiffValue, 0},
		{"one ulp within tolerance", ValueOutcome(floats(F32, 1)), ValueOutcome(floats(F32, float64(math.Nextafter32(1, 2)))), 1, Same, 0},
		{"? matches anything", ValueOutcome(unspec), ValueOutcome(floats(F32, 1, 99)), 0, Same, 1},
		{"dtype", ValueOutcome(floats(F32, 1)), ValueOutcome(floats(F64, 1)), 0, DiffDType, 0},
		{"shape", ValueOutcome(floats(F32, 1)), ValueOutcome(New(F32)), 0, DiffShape, 0},
		{"ints", ValueOutcome(ints), ValueOutcome(New(I64, 2)), 0, DiffValue, 0},
		{"error vs value", ErrorOutcome(ZeroDivision, "x"), ValueOutcome(ints), 0, DiffForm, 0},
		{"error classes", ErrorOutcome(ZeroDivision, "x"), ErrorOutcome(Other, "x"), 0, DiffErrorClass, 0},
		{"messages are not compared", ErrorOutcome(Other, "a"), ErrorOutcome(Other, "b"), 0, Same, 0},
		{"crash signals", CrashOutcome("SIGFPE"), CrashOutcome("SIGSEGV"), 0, DiffSignal, 0},
		{"panic vs crash", PanicOutcome("p"), CrashOutcome("SIGFPE"), 0, DiffForm, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := Compare(tt.want, tt.got, tt.tol)
			if c.Divergence != tt.divergence || c.ThroughUnspecified != tt.through {
				t.Errorf("Compare = %+v, want divergence %q, %d through ?", c, tt.divergence, tt.through)
			}
		})
	}
}
