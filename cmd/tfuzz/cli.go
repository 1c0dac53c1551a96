package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/pflag"
)

// flags is the flag set of one command. As go's own commands do, the
// command's help goes to stdout when asked for (-h, --help, tfuzz help CMD)
// and to stderr after a usage error; pflag parses GNU-style flags.
type flags struct {
	*pflag.FlagSet
	name, usage    string
	stdout, stderr io.Writer
}

func newFlags(name, usage string, stdout, stderr io.Writer) *flags {
	f := &flags{FlagSet: pflag.NewFlagSet(name, pflag.ContinueOnError), name: name, usage: usage, stdout: stdout, stderr: stderr}
	f.SetOutput(stdout)
	f.Usage = func() {
		fmt.Fprint(f.Output(), f.usage)
		if f.HasFlags() {
			fmt.Fprint(f.Output(), "\nflags:\n", f.FlagUsages())
		}
	}
	f.SortFlags = false
	return f
}

// parse parses args; when it returns ok false, the command returns code
// (0 after -h, 2 after a bad flag).
func (f *flags) parse(args []string) (code int, ok bool) {
	err := f.Parse(args)
	switch {
	case errors.Is(err, pflag.ErrHelp):
		return exitClean, false
	case err != nil:
		fmt.Fprintf(f.stderr, "tfuzz %s: %v (tfuzz help %s lists the flags)\n", f.name, err, f.name)
		return exitUsage, false
	}
	return exitClean, true
}

// fail reports a usage error with the command's help, and returns exit 2.
func (f *flags) fail(format string, args ...any) int {
	fmt.Fprintf(f.stderr, "tfuzz %s: %s\n\n", f.name, fmt.Sprintf(format, args...))
	f.SetOutput(f.stderr)
	f.Usage()
	return exitUsage
}

// errorf reports bad input in one line, and returns exit 2.
func (f *flags) errorf(format string, args ...any) int {
	fmt.Fprintf(f.stderr, "tfuzz %s: %s\n", f.name, fmt.Sprintf(format, args...))
	return exitUsage
}

// noArgs fails unless every argument was a flag.
func (f *flags) noArgs() (code int, ok bool) {
	if f.NArg() > 0 {
		return f.fail("unexpected arguments %q", f.Args()), false
	}
	return exitClean, true
}
