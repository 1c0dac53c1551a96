package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"github.com/tfuzz/tfuzz/impls/adapter"
)

// withSignals returns a context that the first SIGINT or SIGTERM cancels:
// commands stop drawing cases, cancel shrinking and adapter calls (killing
// the adapters' process groups), write what they have and return. A second
// signal kills every adapter process group and exits at once. interrupted
// returns the number of the first signal, 0 if none came.
func withSignals(parent context.Context, stderr io.Writer) (ctx context.Context, interrupted func() int, stop func()) {
	ctx, cancel := context.WithCancel(parent)
	var first atomic.Int32
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-done:
				return
			case sig := <-ch:
				n := signalNumber(sig)
				if first.CompareAndSwap(0, int32(n)) {
					fmt.Fprintf(stderr, "\ntfuzz: %v: stopping, keeping what was found (again to exit at once)\n", sig)
					cancel()
					continue
				}
				fmt.Fprintf(stderr, "\ntfuzz: %v again: exiting now\n", sig)
				adapter.KillAll()
				os.Exit(128 + int(first.Load()))
			}
		}
	}()
	return ctx, func() int { return int(first.Load()) }, func() {
		signal.Stop(ch)
		close(done)
		cancel()
	}
}

func signalNumber(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return int(s)
	}
	return int(syscall.SIGINT)
}

// interruptible runs f and returns its result, or returns early (ok false)
// when ctx is done first: the model evaluates a case in one uninterruptible
// call, which for a large case of extreme floats may take minutes, and so
// may decoding a long line; a signal must not wait for them. f then runs on
// until tfuzz exits. A panic in f is raised again in the caller, where run
// turns it into exit 70 (in f's own goroutine it would end tfuzz with a Go
// stack trace).
func interruptible[T any](ctx context.Context, f func() T) (result T, ok bool) {
	if ctx.Done() == nil {
		return f(), true
	}
	type outcome struct {
		result   T
		panicked any
	}
	done := make(chan outcome, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- outcome{panicked: r}
			}
		}()
		done <- outcome{result: f()}
	}()
	select {
	case r := <-done:
		if r.panicked != nil {
			panic(r.panicked)
		}
		return r.result, true
	case <-ctx.Done():
		return result, false
	}
}
