package campaign

import (
	"fmt"
	"sync/atomic"
	"time"

	"github.com/tfuzz/tfuzz/props"
	"github.com/tfuzz/tfuzz/tensor"
)

// Hangs. An in-process backend whose call never returns (an endless loop
// in a kernel) would hold its worker, and so the campaign, forever: Go
// cannot stop a goroutine. A watchdog looks at every worker's backend call
// once a second; a call running for longer than Config.HangAfter is a
// finding of its own kind (the case, the model's outcome, and the crash
// outcome "timeout" for the backend), written unshrunk, since every
// candidate could hang again. The campaign then stops drawing and Run
// returns without the stuck worker (the process that exits ends it); the
// checkpoint moves past the case, so a resume does not hang on it again.
// An adapter's call has its own timeout, well below HangAfter.

// workerCall is the case a worker is checking.
type workerCall struct {
	b *ctxBackend
	c *tensor.Case
	k int   // target
	i int64 // global case index
}

// watch reports every backend call that has run past HangAfter, until done.
func (r *runner) watch(done <-chan struct{}) {
	t := time.NewTicker(min(time.Second, r.cfg.HangAfter/4))
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case now := <-t.C:
			for w := range r.calls {
				call := r.calls[w].Load()
				if call == nil {
					continue
				}
				if since := call.b.callStart.Load(); since != 0 && now.Sub(time.Unix(0, since)) > r.cfg.HangAfter {
					r.reportHang(w, call)
				}
			}
		}
	}
}

// reportHang writes the finding of worker w's hung call, once, and stops
// the campaign.
func (r *runner) reportHang(w int, call *workerCall) {
	if !r.hung[w].CompareAndSwap(false, true) {
		return
	}
	t := r.cfg.Targets[call.k]
	f := props.HangFinding(t.Backend, t.Profile, call.c, r.cfg.HangAfter)
	r.counts[call.k].hangs.Add(1)
	r.inflight[w].Store(-1) // the checkpoint may move past the case
	if r.cfg.Progress != nil {
		fmt.Fprintf(r.cfg.Progress, "tfuzz: %s has not returned from case %d for %s: %s (a hang: written as a finding; the campaign stops)\n",
			t, call.i, r.cfg.HangAfter, call.c.Describe())
	}
	isNew, err := r.store.add(f, FindingMeta{Seed: r.cfg.Seed, CaseIndex: call.i, OriginalElements: caseElements(call.c)})
	if err != nil {
		r.fail(err)
	} else {
		r.store.markSeen(f.Signature())
	}
	r.mu.Lock()
	if isNew {
		n := caseElements(call.c)
		r.newSizes = append(r.newSizes, [2]int{n, n})
		r.foundAt = append(r.foundAt, time.Since(r.start))
	}
	r.mu.Unlock()
	r.stop()
	r.hungWorkers <- w
}

// hungFlags are per worker: its call hung (the worker is abandoned).
type hungFlags []atomic.Bool
