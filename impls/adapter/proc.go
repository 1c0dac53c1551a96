package adapter

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/tfuzz/tfuzz/tensor"
)

// ProtocolVersion is the version of the line protocol this package speaks.
const ProtocolVersion = 1

// Handshake is the first line an adapter prints: who it is and what it serves.
type Handshake struct {
	Protocol   int               `json:"tfuzz_adapter"` // ProtocolVersion
	Adapter    string            `json:"adapter"`       // a name for reports
	Frameworks map[string]string `json:"frameworks"`    // name -> version ("numpy": "1.24.2")
	Profiles   []string          `json:"profiles"`      // the case-format profiles it serves
	Notes      []string          `json:"notes"`         // what it could not load, and why
	// Features are the additions to case format 1 it reads (FeatureViews,
	// FeaturePrograms, FeatureOps2026); tfuzz sends it nothing else.
	Features []string `json:"features"`
}

// The features an adapter may name in its handshake.
const (
	FeatureViews    = "views"    // tensors with a "view" object (case format, added 2026-12)
	FeaturePrograms = "programs" // format 2 cases with "steps"
	// FeatureOps2026: the ops and attrs added 2026-12 (broadcast_*, where,
	// clamp with null bounds, shifts, full, sort, argsort, mask_select,
	// matmul, cat; the dtype attr of from_literal, arange, sum, prod, mean
	// and cumsum; cumsum without dim) and complex scalars (additions.go).
	FeatureOps2026 = "ops-2026-12"
)

// Has reports whether the adapter named feature f.
func (h Handshake) Has(f string) bool {
	for _, x := range h.Features {
		if x == f {
			return true
		}
	}
	return false
}

// Versions renders the framework versions on one line: "numpy 1.24.2, python 3.11.2".
func (h Handshake) Versions() string {
	var parts []string
	for _, name := range sortedKeys(h.Frameworks) {
		parts = append(parts, name+" "+h.Frameworks[name])
	}
	return strings.Join(parts, ", ")
}

func parseHandshake(line []byte) (Handshake, error) {
	var h Handshake
	dec := json.NewDecoder(strings.NewReader(string(line)))
	if err := dec.Decode(&h); err != nil {
		return h, fmt.Errorf("handshake %q: %w", preview(line), err)
	}
	if h.Protocol != ProtocolVersion {
		return h, fmt.Errorf("handshake %q: protocol %d, want \"tfuzz_adapter\": %d", preview(line), h.Protocol, ProtocolVersion)
	}
	for _, p := range h.Profiles {
		if !tensor.KnownProfile(p) {
			return h, fmt.Errorf("handshake: unknown profile %q", p)
		}
	}
	return h, nil
}

func preview(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}

// proc is one running adapter process.
type proc struct {
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	lines   chan []byte   // answers, in order; closed at end of output
	exited  chan struct{} // closed once the process has been waited for
	stderr  *tailBuffer
	hello   Handshake
	profile string // the profile it serves ("" until its first case)
	wmu     sync.Mutex
}

// startProc starts the adapter and reads its handshake; ctx interrupts the wait.
func startProc(ctx context.Context, b *Backend) (*proc, error) {
	cmd := exec.Command(b.argv[0], b.argv[1:]...)
	cmd.Dir = b.cfg.Dir
	cmd.Env = append(append(os.Environ(), b.cfg.Env...), b.env...)
	tail := newTailBuffer(8<<10, b.cfg.Stderr)
	cmd.Stderr = tail
	cmd.WaitDelay = 2 * time.Second
	setProcessGroup(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: %w", b.Name(), err)
	}
	p := &proc{cmd: cmd, stdin: stdin, lines: make(chan []byte, 1), exited: make(chan struct{}), stderr: tail}
	live.add(p)
	go p.readLines(stdout)
	timer := time.NewTimer(b.cfg.StartTimeout)
	defer timer.Stop()
	select {
	case line, ok := <-p.lines:
		if !ok {
			p.waitExit(5 * time.Second)
			return nil, fmt.Errorf("%s: the adapter ended before its handshake (%s)%s", b.Name(), p.status(), p.stderrNote())
		}
		if p.hello, err = parseHandshake(line); err != nil {
			p.kill()
			return nil, fmt.Errorf("%s: %w%s", b.Name(), err, p.stderrNote())
		}
	case <-timer.C:
		p.kill()
		return nil, fmt.Errorf("%s: no handshake within %v%s", b.Name(), b.cfg.StartTimeout, p.stderrNote())
	case <-ctx.Done():
		p.kill()
		return nil, ctx.Err()
	}
	return p, nil
}

// MaxAnswerBytes bounds one answer line, as tensor.MaxLineBytes bounds a
// line of a case file: an adapter cannot make tfuzz hold more.
const MaxAnswerBytes = tensor.MaxLineBytes

// readLines forwards every complete output line, then waits for the process:
// os/exec wants every read of the pipe done before Wait. A line over
// MaxAnswerBytes is cut there (its decoding then fails: a protocol error)
// and the rest of it is read and dropped.
func (p *proc) readLines(stdout io.Reader) {
	br := bufio.NewReaderSize(stdout, 64<<10)
	for {
		line, err := readLine(br, MaxAnswerBytes+1)
		if err != nil {
			break
		}
		p.lines <- line
	}
	close(p.lines)
	_ = p.cmd.Wait() // the exit status is read from ProcessState
	live.remove(p)
	close(p.exited)
}

// readLine reads up to and including '\n', keeping at most limit bytes.
func readLine(br *bufio.Reader, limit int) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line) < limit {
			line = append(line, chunk[:min(len(chunk), limit-len(line))]...)
		}
		switch {
		case err == nil:
			return line, nil
		case err != bufio.ErrBufferFull:
			return nil, err
		}
	}
}

// roundtrip sends one request line and returns the answer line, or the
// outcome of the process's death (a crash with its signal, or a timeout),
// or neither when ctx interrupted it (the process is then killed).
func (p *proc) roundtrip(ctx context.Context, req []byte, timeout time.Duration) ([]byte, *tensor.Outcome) {
	go func() {
		p.wmu.Lock()
		defer p.wmu.Unlock()
		_, _ = p.stdin.Write(req) // a dead process shows as the end of its output
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case line, ok := <-p.lines:
		if ok {
			return line, nil
		}
		p.waitExit(5 * time.Second)
		o := tensor.CrashOutcome(p.signal())
		o.Warnings = p.crashNotes()
		return nil, &o
	case <-ctx.Done():
		p.kill()
		return nil, nil
	case <-timer.C:
		p.kill()
		o := tensor.CrashOutcome(TimeoutSignal)
		o.Warnings = append([]string{fmt.Sprintf("tfuzz: no answer within %v; the adapter was killed (SIGKILL)", timeout)}, p.crashNotes()...)
		return nil, &o
	}
}

// TimeoutSignal is the crash signal of a case the adapter did not answer in time.
const TimeoutSignal = "timeout"

// kill ends the process and everything it started, and waits for it a while.
func (p *proc) kill() {
	killProcessGroup(p.cmd)
	p.waitExit(5 * time.Second)
}

// close asks the adapter to end (end of input), then kills it if it lingers.
func (p *proc) close() {
	_ = p.stdin.Close()
	select {
	case <-p.exited:
	case <-time.After(2 * time.Second):
		p.kill()
	}
}

func (p *proc) waitExit(d time.Duration) {
	select {
	case <-p.exited:
	case <-time.After(d):
	}
}

// signal names how the process ended: "SIGFPE" when a signal killed it,
// "exit N" when it exited by itself while it held a case.
func (p *proc) signal() string {
	select {
	case <-p.exited:
	default:
		return "unknown"
	}
	if sig, ok := exitSignal(p.cmd.ProcessState); ok {
		return sig
	}
	return fmt.Sprintf("exit %d", p.cmd.ProcessState.ExitCode())
}

func (p *proc) status() string {
	select {
	case <-p.exited:
		return p.signal()
	default:
		return "still running"
	}
}

func (p *proc) crashNotes() []string {
	if t := strings.TrimSpace(p.stderr.String()); t != "" {
		return []string{"adapter stderr: " + t}
	}
	return nil
}

func (p *proc) stderrNote() string {
	if t := strings.TrimSpace(p.stderr.String()); t != "" {
		return "; its stderr ends:\n" + t
	}
	return ""
}

// tailBuffer keeps the last bytes written to it, and copies them to an
// optional writer.
type tailBuffer struct {
	mu   sync.Mutex
	max  int
	buf  []byte
	copy io.Writer
}

func newTailBuffer(max int, copy io.Writer) *tailBuffer {
	return &tailBuffer{max: max, copy: copy}
}

func (t *tailBuffer) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, b...)
	if len(t.buf) > t.max {
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-t.max:]...)
	}
	if t.copy != nil {
		_, _ = t.copy.Write(b)
	}
	return len(b), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.buf)
}

var errClosed = errors.New("adapter: backend closed")

// live holds every adapter process that has not been waited for, so that
// KillAll can end them all when tfuzz must exit at once.
var live = procSet{m: map[*proc]bool{}}

type procSet struct {
	mu sync.Mutex
	m  map[*proc]bool
}

func (s *procSet) add(p *proc) {
	s.mu.Lock()
	s.m[p] = true
	s.mu.Unlock()
}

func (s *procSet) remove(p *proc) {
	s.mu.Lock()
	delete(s.m, p)
	s.mu.Unlock()
}

// KillAll kills the process group of every adapter process still running
// (tfuzz exiting at a second Ctrl-C): no adapter outlives tfuzz.
func KillAll() {
	live.mu.Lock()
	defer live.mu.Unlock()
	for p := range live.m {
		killProcessGroup(p.cmd)
	}
}
