package adapter

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tfuzz/tfuzz/tensor"
)

// Prefix starts the name of an exec backend: "exec:python3 tfuzz_adapter.py".
const Prefix = "exec:"

// Config describes an exec backend. Zero values take the documented defaults.
type Config struct {
	Command      string        // the command line (see SplitCommand)
	Name         string        // how reports and findings name the backend; default "exec:" + Command
	Dir          string        // working directory; default: the current one
	Env          []string      // extra NAME=value environment entries
	Timeout      time.Duration // per case; default 30s
	StartTimeout time.Duration // from start to handshake; default 120s (imports of torch and jax are slow)
	Procs        int           // processes per profile; default 1
	Stderr       io.Writer     // where the adapters' stderr is copied too; nil: kept only for crash reports
}

// Environment variables that ConfigFromEnv reads.
const (
	EnvTimeout      = "TFUZZ_ADAPTER_TIMEOUT"       // a Go duration: "30s"
	EnvStartTimeout = "TFUZZ_ADAPTER_START_TIMEOUT" // a Go duration: "2m"
	EnvProcs        = "TFUZZ_ADAPTER_PROCS"         // an integer
)

// ConfigFromEnv returns the configuration of the exec backend called name
// ("exec:CMD"), with the timeouts and process count from the environment.
func ConfigFromEnv(name string) (Config, error) {
	cmd, ok := strings.CutPrefix(name, Prefix)
	if !ok || strings.TrimSpace(cmd) == "" {
		return Config{}, fmt.Errorf("backend %q: want exec:COMMAND", name)
	}
	cfg := Config{Command: cmd}
	for _, v := range []struct {
		env string
		dst *time.Duration
	}{{EnvTimeout, &cfg.Timeout}, {EnvStartTimeout, &cfg.StartTimeout}} {
		if s := os.Getenv(v.env); s != "" {
			d, err := time.ParseDuration(s)
			if err != nil || d <= 0 {
				return cfg, fmt.Errorf("%s=%q: want a positive duration such as 30s", v.env, s)
			}
			*v.dst = d
		}
	}
	if s := os.Getenv(EnvProcs); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return cfg, fmt.Errorf("%s=%q: want a positive integer", EnvProcs, s)
		}
		cfg.Procs = n
	}
	return cfg, nil
}

// IsExec reports whether a backend name names an exec backend.
func IsExec(name string) bool { return strings.HasPrefix(name, Prefix) }

// Backend is an adapter process pool seen as a tensor.Backend.
type Backend struct {
	cfg       Config
	env, argv []string
	hello     Handshake

	mu     sync.Mutex
	cond   *sync.Cond
	idle   map[string][]*proc // by bound profile; "" holds fresh processes
	count  map[string]int     // live processes by bound profile
	closed bool
	stats  Stats
}

// Stats count what the backend's processes went through.
type Stats struct {
	Cases    int64 // cases sent
	Starts   int64 // processes started (the first one included)
	Crashes  int64 // cases whose process died
	Timeouts int64 // cases whose process was killed for not answering
}

// New starts the adapter once to read its handshake; that process then
// serves the first profile asked for. It fails when the command cannot start
// or does not speak the protocol.
func New(cfg Config) (*Backend, error) {
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	if cfg.StartTimeout <= 0 {
		cfg.StartTimeout = 120 * time.Second
	}
	if cfg.Procs <= 0 {
		cfg.Procs = 1
	}
	env, argv, err := SplitCommand(cfg.Command)
	if err != nil {
		return nil, err
	}
	b := &Backend{cfg: cfg, env: env, argv: argv, idle: map[string][]*proc{}, count: map[string]int{}}
	b.cond = sync.NewCond(&b.mu)
	p, err := startProc(context.Background(), b)
	if err != nil {
		return nil, err
	}
	if len(p.hello.Profiles) == 0 {
		p.close()
		return nil, fmt.Errorf("%s: the adapter serves no profile (its notes: %s)", b.Name(), strings.Join(p.hello.Notes, "; "))
	}
	b.stats.Starts++
	b.hello = p.hello
	b.idle[""] = []*proc{p}
	b.count[""] = 1
	return b, nil
}

// Name is Config.Name, by default "exec:" and the command line.
func (b *Backend) Name() string {
	if b.cfg.Name != "" {
		return b.cfg.Name
	}
	return Prefix + b.cfg.Command
}

// Profiles are the profiles the adapter's handshake names.
func (b *Backend) Profiles() []string { return append([]string(nil), b.hello.Profiles...) }

// Handshake returns what the adapter said about itself at start.
func (b *Backend) Handshake() Handshake { return b.hello }

// Supports reports whether the adapter serves profile and reads what the
// case holds (views, programs: its handshake's features). Whether the
// framework can run the case is the framework's to answer (an error, or
// unsupported), so every such case of a served profile is sent.
func (b *Backend) Supports(profile string, c *tensor.Case) bool {
	return b.serves(profile) && b.reads(c) == ""
}

// reads returns the feature case c needs that the adapter did not name
// ("" when it reads c).
func (b *Backend) reads(c *tensor.Case) string {
	if c.IsProgram() && !b.hello.Has(FeaturePrograms) {
		return FeaturePrograms
	}
	views := func(a tensor.Arg) bool { return a.Tensor != nil && a.Tensor.View != nil }
	for _, a := range c.Args {
		if views(a) && !b.hello.Has(FeatureViews) {
			return FeatureViews
		}
	}
	for _, s := range c.Steps {
		for _, a := range s.Args {
			if a.From == tensor.FromLiteral && views(a.Arg) && !b.hello.Has(FeatureViews) {
				return FeatureViews
			}
		}
	}
	if !b.hello.Has(FeatureOps2026) && usesOps2026(c) {
		return FeatureOps2026
	}
	return ""
}

func (b *Backend) serves(profile string) bool {
	for _, p := range b.hello.Profiles {
		if p == profile {
			return true
		}
	}
	return false
}

// Stats returns the counts so far.
func (b *Backend) Stats() Stats {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.stats
}

// Eval sends the case to an adapter process serving profile and returns its
// answer. A process that dies with the case gives a crash outcome with its
// signal; one that does not answer within the timeout is killed and gives a
// crash outcome with signal "timeout". The next case gets a new process.
// A process that answers something other than one outcome line breaks the
// protocol: Eval kills it and returns a harness failure
// (tensor.CauseHarness), as it does when no process starts: no answer came,
// which is neither a match nor a finding about the framework.
func (b *Backend) Eval(profile string, c *tensor.Case) tensor.Outcome {
	out, _ := b.EvalContext(context.Background(), profile, c)
	return out
}

// EvalContext is Eval that ctx can interrupt: when ctx is done before the
// answer, the adapter's process group is killed and EvalContext returns
// ctx's error with an outcome that means nothing (the case was not run to
// its end). It returns promptly even while a process is starting.
func (b *Backend) EvalContext(ctx context.Context, profile string, c *tensor.Case) (tensor.Outcome, error) {
	if !b.serves(profile) {
		return tensor.UnsupportedOutcome("tfuzz: adapter %s does not serve profile %q (it serves %v)", b.Name(), profile, b.hello.Profiles), nil
	}
	if err := ctx.Err(); err != nil {
		return interruptedOutcome(), err
	}
	if f := b.reads(c); f != "" { // a reader of case format 1 would misread the case
		return tensor.HarnessFailureOutcome("tfuzz: adapter %s does not read %s (its handshake names features %v); the case is not sent", b.Name(), f, b.hello.Features), nil
	}
	req := encodeRequest(profile, c)
	p, err := b.acquire(ctx, profile)
	if err != nil {
		if ctx.Err() != nil {
			return interruptedOutcome(), ctx.Err()
		}
		if errors.Is(err, errClosed) {
			panic("adapter: " + errClosed.Error()) // misuse: Eval after Close
		}
		return tensor.HarnessFailureOutcome("adapter %s: %v", b.Name(), err), nil
	}
	line, death := p.roundtrip(ctx, req, b.cfg.Timeout)
	if death == nil && line == nil { // interrupted
		b.release(p, false)
		return interruptedOutcome(), ctx.Err()
	}
	b.mu.Lock()
	b.stats.Cases++
	if death != nil {
		if death.Signal == TimeoutSignal {
			b.stats.Timeouts++
		} else {
			b.stats.Crashes++
		}
	}
	b.mu.Unlock()
	if death != nil {
		b.release(p, false)
		return *death, nil
	}
	var out tensor.Outcome
	var restart string
	if len(line) > MaxAnswerBytes {
		err = fmt.Errorf("an answer line over the limit of %d MiB", MaxAnswerBytes>>20)
	} else {
		out, restart, err = decodeAnswer(line)
	}
	if err != nil {
		p.kill()
		b.release(p, false)
		id := c.ID
		if id == "" {
			id = "(no id)"
		}
		return tensor.HarnessFailureOutcome("adapter %s broke the protocol on case %s under %s: answer %q: %v",
			b.Name(), id, profile, preview(line), err), nil
	}
	if restart != "" {
		// The adapter ends after this answer (its framework state is
		// unusable, e.g. a poisoned CUDA context): the next case gets a new process.
		out.Warnings = append(out.Warnings, "tfuzz: the adapter restarts after this case: "+restart)
		b.release(p, false)
		go p.close()
		return out, nil
	}
	b.release(p, true)
	return out, nil
}

func interruptedOutcome() tensor.Outcome {
	return tensor.UnsupportedOutcome("tfuzz: interrupted before the adapter answered")
}

// decodeAnswer decodes an answer line: one case-format outcome, optionally
// with the protocol's own top-level field "restart" (a reason).
func decodeAnswer(line []byte) (out tensor.Outcome, restart string, err error) {
	if bytes.Contains(line, []byte(`"restart"`)) {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(line, &fields); err != nil {
			return out, "", err
		}
		if raw, ok := fields["restart"]; ok {
			if err := json.Unmarshal(raw, &restart); err != nil || restart == "" {
				return out, "", fmt.Errorf("\"restart\" wants a non-empty reason")
			}
			delete(fields, "restart")
			if line, err = json.Marshal(fields); err != nil {
				return out, "", err
			}
		}
	}
	if out, err = tensor.DecodeOutcome(line); err == nil {
		err = out.Check()
	}
	return out, restart, err
}

// encodeRequest writes the case without expectations, with the profile added.
func encodeRequest(profile string, c *tensor.Case) []byte {
	pj, _ := json.Marshal(profile)
	r := tensor.Case{ID: c.ID, Format: c.Format, Op: c.Op, Args: c.Args, Attrs: c.Attrs, Steps: c.Steps,
		Extra: []tensor.RawField{{Name: "profile", Value: pj}}}
	return append(tensor.EncodeCase(&r), '\n')
}

// acquire returns an idle process bound to profile, binding a fresh one or
// starting one when the profile has fewer than Procs, else waits for one.
func (b *Backend) acquire(ctx context.Context, profile string) (*proc, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for {
		if b.closed {
			return nil, errClosed
		}
		if p := b.pop(profile); p != nil {
			return p, nil
		}
		if b.count[profile] < b.cfg.Procs {
			if p := b.pop(""); p != nil {
				b.count[""]--
				b.count[profile]++
				p.profile = profile
				return p, nil
			}
			b.count[profile]++
			b.stats.Starts++
			b.mu.Unlock()
			p, err := startProc(ctx, b)
			if err == nil && !servesIn(p.hello, profile) {
				p.close()
				err = fmt.Errorf("%s: restarted adapter no longer serves %s (it serves %v)", b.Name(), profile, p.hello.Profiles)
			}
			b.mu.Lock()
			if err != nil {
				b.count[profile]--
				b.cond.Broadcast()
				return nil, err
			}
			p.profile = profile
			return p, nil
		}
		b.cond.Wait()
	}
}

func (b *Backend) pop(profile string) *proc {
	list := b.idle[profile]
	if len(list) == 0 {
		return nil
	}
	p := list[len(list)-1]
	b.idle[profile] = list[:len(list)-1]
	return p
}

func servesIn(h Handshake, profile string) bool {
	for _, p := range h.Profiles {
		if p == profile {
			return true
		}
	}
	return false
}

// release returns a process to the pool, or forgets a dead one.
func (b *Backend) release(p *proc, alive bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	defer b.cond.Broadcast()
	if alive && !b.closed {
		b.idle[p.profile] = append(b.idle[p.profile], p)
		return
	}
	b.count[p.profile]--
	if alive {
		go p.close()
	}
}

// Close ends every idle process; a busy one ends when its case returns (an
// EvalContext whose ctx is done returns at once).
func (b *Backend) Close() error {
	b.mu.Lock()
	b.closed = true
	var all []*proc
	for k, list := range b.idle {
		all = append(all, list...)
		b.count[k] -= len(list)
		delete(b.idle, k)
	}
	b.cond.Broadcast()
	b.mu.Unlock()
	var wg sync.WaitGroup
	for _, p := range all {
		wg.Add(1)
		go func() { defer wg.Done(); p.close() }()
	}
	wg.Wait()
	return nil
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
