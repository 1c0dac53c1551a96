package tensor

import (
	"fmt"
	"strings"
)

// Form is which of the case format's outcome forms an Outcome has.
type Form uint8

const (
	FormValue       Form = iota // a result tensor
	FormError                   // a recoverable error (Python exception, Rust Err)
	FormPanic                   // a Rust panic or equivalent abort of the operation
	FormCrash                   // the process died
	FormUnsupported             // no such operation, or the program does not compile
)

var formNames = [...]string{"value", "error", "panic", "crash", "unsupported"}

func (f Form) String() string { return formNames[f] }

// ErrorClass is the class of an error outcome; only classes are compared.
type ErrorClass string

// The error classes of case format v1.
const (
	DTypeMismatch    ErrorClass = "DTypeMismatch"
	UnsupportedDType ErrorClass = "UnsupportedDType"
	ZeroDivision     ErrorClass = "ZeroDivision"
	IndexOutOfRange  ErrorClass = "IndexOutOfRange"
	IndexDType       ErrorClass = "IndexDType"
	ShapeMismatch    ErrorClass = "ShapeMismatch"
	OutOfRange       ErrorClass = "OutOfRange"
	EmptyTensor      ErrorClass = "EmptyTensor"
	Other            ErrorClass = "Other"
)

// ErrorClasses lists every valid error class.
var ErrorClasses = []ErrorClass{DTypeMismatch, UnsupportedDType, ZeroDivision, IndexOutOfRange,
	IndexDType, ShapeMismatch, OutOfRange, EmptyTensor, Other}

func validErrorClass(c ErrorClass) bool {
	for _, k := range ErrorClasses {
		if k == c {
			return true
		}
	}
	return false
}

// Cause says who speaks in an outcome. Most outcomes are a framework's
// answer (or the model's statement of it); two kinds are not, and every
// count must keep them apart from real answers: the model saying it states
// nothing for the case (yet), and the harness saying it could not get an
// answer (an adapter that did not start or broke the protocol). Neither is
// written to case files: it lives only while tfuzz runs.
type Cause uint8

const (
	CauseAnswer     Cause = iota // the framework's answer, as the model or a backend states it
	CauseNotModeled              // the model states no outcome for this case (yet)
	CauseHarness                 // the harness failed to get an answer: infrastructure, not a finding
)

// Outcome is what one framework configuration does with one case.
type Outcome struct {
	Form     Form
	Value    *Tensor    // FormValue
	Class    ErrorClass // FormError
	msg      message    // FormError, FormPanic, FormUnsupported: see Message
	Signal   string     // FormCrash: "SIGFPE", "SIGSEGV", "SIGABRT", ...
	Warnings []string   // recorded, not compared
	Rules    []string   // names of the model rules that decided it; recorded, not compared
	Cause    Cause      // who speaks; not encoded (see Cause)
}

// Message returns the outcome's message (errors, panics, unsupported).
func (o Outcome) Message() string { return o.msg.String() }

// message is an outcome's message, formatted when read: a campaign
// compares millions of outcomes (messages are not compared) and reads the
// messages of few, so that formatting each would cost a visible share of a
// case. Its arguments are the values the constructor was given; without
// them, format is the text itself.
type message struct {
	format string
	args   []any
}

// formatMessage is the message fmt.Sprintf(format, args...).
func formatMessage(format string, args ...any) message {
	if len(args) > 0 {
		return message{format: format, args: args}
	}
	if strings.ContainsRune(format, '%') {
		return textMessage(fmt.Sprintf(format, args...)) // "%%" reads "%"
	}
	return textMessage(format)
}

// textMessage is the message s, as it reads.
func textMessage(s string) message { return message{format: s} }

func (m message) String() string {
	if m.args == nil {
		return m.format
	}
	return fmt.Sprintf(m.format, m.args...)
}

// NotModeled reports whether the model said it states no outcome for the case.
func (o Outcome) NotModeled() bool { return o.Cause == CauseNotModeled }

// HarnessFailure reports whether the harness could not get an answer.
func (o Outcome) HarnessFailure() bool { return o.Cause == CauseHarness }

// HarnessFailureOutcome returns the outcome of a harness that could not get
// an answer (an adapter that did not start, broke the protocol, ...).
func HarnessFailureOutcome(format string, args ...any) Outcome {
	return Outcome{Form: FormUnsupported, msg: formatMessage(format, args...), Cause: CauseHarness}
}

// Value returns a value outcome.
func ValueOutcome(t *Tensor) Outcome { return Outcome{Form: FormValue, Value: t} }

// ErrorOutcome returns an error outcome.
func ErrorOutcome(class ErrorClass, format string, args ...any) Outcome {
	return Outcome{Form: FormError, Class: class, msg: formatMessage(format, args...)}
}

// PanicOutcome returns a panic outcome.
func PanicOutcome(format string, args ...any) Outcome {
	return Outcome{Form: FormPanic, msg: formatMessage(format, args...)}
}

// CrashOutcome returns a crash outcome with the signal that killed the process.
func CrashOutcome(signal string) Outcome { return Outcome{Form: FormCrash, Signal: signal} }

// UnsupportedOutcome returns an unsupported outcome.
func UnsupportedOutcome(format string, args ...any) Outcome {
	return Outcome{Form: FormUnsupported, msg: formatMessage(format, args...)}
}

// String renders the outcome on one line, for tables and diffs.
func (o Outcome) String() string {
	switch o.Form {
	case FormValue:
		if o.Value == nil {
			return "value <nil>"
		}
		return o.Value.String()
	case FormError:
		return fmt.Sprintf("error %s: %s", o.Class, o.Message())
	case FormPanic:
		return "panic: " + o.Message()
	case FormCrash:
		return "crash " + o.Signal
	}
	return "unsupported: " + o.Message()
}

// ProfileOutcome is one entry of a case's expect or got map.
type ProfileOutcome struct {
	Profile string
	Outcome Outcome
}

// Outcomes maps profile names to outcomes, keeping the order of the file.
type Outcomes []ProfileOutcome

// Get returns the outcome for profile.
func (os Outcomes) Get(profile string) (Outcome, bool) {
	for _, po := range os {
		if po.Profile == profile {
			return po.Outcome, true
		}
	}
	return Outcome{}, false
}

// Set replaces or appends the outcome for profile.
func (os *Outcomes) Set(profile string, o Outcome) {
	for i := range *os {
		if (*os)[i].Profile == profile {
			(*os)[i].Outcome = o
			return
		}
	}
	*os = append(*os, ProfileOutcome{profile, o})
}

// Profiles returns the profile names in order.
func (os Outcomes) Profiles() []string {
	names := make([]string, len(os))
	for i, po := range os {
		names[i] = po.Profile
	}
	return names
}

// Check reports what makes o malformed: a form without its payload, a value
// whose data does not fill its shape, an unknown error class.
func (o Outcome) Check() error {
	switch o.Form {
	case FormValue:
		t := o.Value
		if t == nil {
			return fmt.Errorf("value outcome without a tensor")
		}
		if !t.DType.Valid() {
			return fmt.Errorf("value of invalid dtype %d", t.DType)
		}
		if len(t.Shape) > MaxRank {
			return fmt.Errorf("value of rank %d", len(t.Shape))
		}
		for _, d := range t.Shape {
			if d < 0 {
				return fmt.Errorf("value of shape %v", t.Shape)
			}
		}
		if t.IsContiguous() && len(t.Data) != t.Len()*wordsPer(t.DType) {
			return fmt.Errorf("value of shape %v holds %d words", t.Shape, len(t.Data))
		}
		if err := t.checkLayout(); err != nil {
			return fmt.Errorf("value of shape %v: %w", t.Shape, err)
		}
	case FormError:
		if !validErrorClass(o.Class) {
			return fmt.Errorf("error of unknown class %s", Quote(string(o.Class)))
		}
	case FormCrash:
		if o.Signal == "" {
			return fmt.Errorf("crash without a signal")
		}
	case FormPanic, FormUnsupported:
	default:
		return fmt.Errorf("unknown outcome form %d", o.Form)
	}
	return nil
}
