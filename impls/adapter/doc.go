// Package adapter reaches implementations outside the process: a real
// PyTorch, NumPy or JAX installation (or any program that speaks the line
// protocol of PROTOCOL.md) becomes a tensor.Backend called "exec:CMD".
//
// tfuzz starts CMD, reads one handshake line (the adapter's framework
// versions and the profiles it serves), then writes one case per line (case
// format v1 plus the profile name) and reads one outcome per line. Every
// case runs under a timeout. When the process dies while it holds a case,
// the case gets a crash outcome carrying the signal from the process's wait
// status (SIGFPE, SIGSEGV, ...); when it does not answer in time it is
// killed with SIGKILL and the case gets a crash outcome whose signal is
// "timeout". Either way the next case starts a fresh process, so a framework
// that traps kills one case, not the campaign.
//
// Processes are kept per profile (a JAX process never switches
// jax_enable_x64 between cases, a CUDA device-side assert poisons only the
// pytorch/cuda process), at most Config.Procs of them per profile, so that
// a campaign's workers evaluate cases in parallel.
//
// The reference adapter for PyTorch, NumPy and JAX is python/tfuzz_adapter.py.
// Like every implementation, this package never imports the model.
package adapter
