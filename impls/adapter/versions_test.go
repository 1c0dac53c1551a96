package adapter

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/tfuzz/tfuzz/tensor"
)

// The reference adapter run by the installed Debian frameworks (NumPy 1.24,
// PyTorch 1.13) over the recorded outcomes (corpus/oracle), recorded with NumPy 2.5 and PyTorch
// 2.11. Every recorded outcome the installed version does not reproduce must
// be listed in the version's differences file with the reason that a rule
// below derives from the case and the two outcomes; an unexplained
// difference, a listed case that now matches, or a reason that is not the
// derived one fails the test. go test -run Oracle -update rewrites the files.

var update = flag.Bool("update", false, "rewrite the differences files from the installed frameworks")

const (
	debianPython = "/usr/bin/python3" // Debian's python3-numpy and python3-torch install here
	oracleDir    = "../../corpus/oracle"
	artifacts    = "../../corpus/oracle-exceptions.txt"
)

// difference is a recorded outcome the installed framework does not reproduce.
type difference struct {
	c         *tensor.Case
	want, got tensor.Outcome
	cmp       tensor.Comparison
}

// diffRule explains one kind of difference between the installed version
// and the recorded one.
type diffRule struct {
	key    string // short name, written as [key] before the reason
	reason string // one line, on every listed case
	doc    string // the full explanation, written once above the group
	// machineDependent rules depend on the CPU (SIMD kernels): on another
	// machine the case may match, which is then not a stale entry.
	machineDependent bool
	match            func(d difference) bool
}

// versionCheck is one installed framework checked against the oracle.
type versionCheck struct {
	framework string // handshake key: "numpy", "torch"
	version   string // the version prefix the file is derived for: "1.24."
	recorded  string // what the oracle recorded, for the file's header
	profile   string
	file      string
	rules     []diffRule
	skip      func(h Handshake) string // a reason to skip, or ""
}

func TestNumPy124AgainstOracle(t *testing.T) {
	runVersionCheck(t, versionCheck{
		framework: "numpy", version: "1.24.", recorded: "numpy 2.5.2 with ml_dtypes",
		profile: "numpy", file: "numpy124-differences.txt", rules: numpy124Rules,
		skip: func(h Handshake) string {
			if _, ok := h.Frameworks["ml_dtypes"]; ok {
				return "ml_dtypes is installed: the file is derived for Debian's NumPy without it"
			}
			return ""
		},
	})
}

func TestTorch113AgainstOracle(t *testing.T) {
	runVersionCheck(t, versionCheck{
		framework: "torch", version: "1.13.", recorded: "torch 2.11.0 CPU",
		profile: "pytorch/cpu", file: "torch113-differences.txt", rules: torch113Rules,
	})
}

func runVersionCheck(t *testing.T, vc versionCheck) {
	if _, err := os.Stat(oracleDir); err != nil {
		t.Fatalf("the recorded outcomes are missing: %v", err)
	}
	if _, err := os.Stat(debianPython); err != nil {
		t.Skipf("no %s", debianPython)
	}
	if err := exec.Command(debianPython, "-c", "import "+vc.framework).Run(); err != nil {
		t.Skipf("%s cannot import %s (apt-get install python3-%s)", debianPython, vc.framework, vc.framework)
	}
	b, err := New(Config{
		Command:      fmt.Sprintf("TFUZZ_ADAPTER_FRAMEWORKS=%s %s python/tfuzz_adapter.py", vc.framework, debianPython),
		Timeout:      20 * time.Second,
		StartTimeout: 60 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	h := b.Handshake()
	version := h.Frameworks[vc.framework]
	if !strings.HasPrefix(version, vc.version) {
		t.Skipf("installed %s is %s; %s is derived for %s*", vc.framework, version, vc.file, vc.version)
	}
	if !servesIn(h, vc.profile) {
		t.Skipf("the adapter does not serve %s here (it serves %v)", vc.profile, h.Profiles)
	}
	if vc.skip != nil {
		if why := vc.skip(h); why != "" {
			t.Skip(why)
		}
	}
	rules := append(append([]diffRule(nil), vc.rules...), oracleArtifactRule(t, vc.profile))
	files, _ := filepath.Glob(filepath.Join(oracleDir, "*.jsonl"))
	sort.Strings(files)
	derived := map[string]string{} // case id -> "[key] reason"
	byKey := map[string][]string{}
	var unexplained []string
	cases, matched := 0, 0
	for _, f := range files {
		cs, err := tensor.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			want, ok := c.Expect.Get(vc.profile)
			if !ok {
				continue
			}
			cases++
			got := b.Eval(vc.profile, c)
			cmp := tensor.Compare(want, got, c.Attrs.ToleranceULPs)
			if cmp.Match() {
				matched++
				continue
			}
			d := difference{c: c, want: want, got: got, cmp: cmp}
			r := classify(rules, d)
			if r == nil {
				unexplained = append(unexplained, fmt.Sprintf("%s %s\n    recorded %s\n    installed %s\n    %s", c.ID, c.Describe(), want, got, cmp.Detail))
				continue
			}
			derived[c.ID] = "[" + r.key + "] " + r.reason
			byKey[r.key] = append(byKey[r.key], c.ID)
		}
	}
	var summary strings.Builder
	fmt.Fprintf(&summary, "%s %s against the oracle (%s), profile %s: %d cases, %d reproduced, %d differ",
		vc.framework, version, vc.recorded, vc.profile, cases, matched, cases-matched)
	for _, r := range rules {
		if n := len(byKey[r.key]); n > 0 {
			fmt.Fprintf(&summary, "\n  %4d  [%s] %s", n, r.key, r.reason)
		}
	}
	if len(unexplained) > 0 {
		fmt.Fprintf(&summary, "\n  %4d  unexplained", len(unexplained))
	}
	t.Log(summary.String())
	for _, u := range unexplained {
		t.Errorf("a difference no rule explains:\n  %s", u)
	}
	if *update {
		writeDifferences(t, vc, version, rules, byKey, derived)
		return
	}
	listed := readDifferences(t, vc.file, vc.profile)
	var problems []string
	for _, id := range sortedKeys(derived) {
		switch reason, ok := listed[id]; {
		case !ok && ruleOf(rules, derived[id]) != nil && ruleOf(rules, derived[id]).machineDependent:
			// a last-bit difference of this CPU's SIMD kernels: another machine
			// (the one the list was written on) may reproduce the case
		case !ok:
			problems = append(problems, fmt.Sprintf("%s differs (%s) but is not listed", id, derived[id]))
		case reason != derived[id]:
			problems = append(problems, fmt.Sprintf("%s is listed with %q, the rules derive %q", id, reason, derived[id]))
		}
	}
	for _, id := range sortedKeys(listed) {
		if _, ok := derived[id]; ok {
			continue
		}
		if r := ruleOf(rules, listed[id]); r != nil && r.machineDependent {
			continue
		}
		problems = append(problems, fmt.Sprintf("%s is listed (%s) but reproduces the recorded outcome now", id, listed[id]))
	}
	if len(problems) > 0 {
		t.Errorf("%s does not match the installed %s %s (go test ./impls/adapter -run Oracle -update rewrites it):\n  %s",
			vc.file, vc.framework, version, strings.Join(problems, "\n  "))
	}
}

func classify(rules []diffRule, d difference) *diffRule {
	for i := range rules {
		if rules[i].match(d) {
			return &rules[i]
		}
	}
	return nil
}

func ruleOf(rules []diffRule, reason string) *diffRule {
	for i := range rules {
		if strings.HasPrefix(reason, "["+rules[i].key+"]") {
			return &rules[i]
		}
	}
	return nil
}

// readDifferences reads "case-id profile reason" lines (the format of
// tfuzz eval --exceptions) for one profile.
func readDifferences(t *testing.T, path, profile string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (go test ./impls/adapter -run Oracle -update writes it)", err)
	}
	defer f.Close()
	listed := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) < 3 {
			t.Fatalf("%s: bad line %q", path, line)
		}
		if fields[1] == profile {
			listed[fields[0]] = strings.Join(fields[2:], " ")
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return listed
}

func writeDifferences(t *testing.T, vc versionCheck, version string, rules []diffRule, byKey map[string][]string, derived map[string]string) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "# Recorded outcomes of corpus/oracle/ (%s, profile %s) that Debian's %s %s\n", vc.recorded, vc.profile, vc.framework, version)
	fmt.Fprintf(&b, "# does not reproduce through python/tfuzz_adapter.py, grouped by the rule that explains them.\n")
	fmt.Fprintf(&b, "# Written by `go test ./impls/adapter -run Oracle -update`; checked by the same test without -update.\n")
	fmt.Fprintf(&b, "# Format of corpus/oracle-exceptions.txt (case-id profile reason), so that\n")
	fmt.Fprintf(&b, "#   tfuzz eval --check --backend exec:'...tfuzz_adapter.py' --exceptions impls/adapter/%s corpus/oracle\n", vc.file)
	fmt.Fprintf(&b, "# reports these as known differences and every other case as matched.\n")
	for _, r := range rules {
		ids := byKey[r.key]
		if len(ids) == 0 {
			continue
		}
		sort.Strings(ids)
		fmt.Fprintf(&b, "\n# [%s] %d cases.\n", r.key, len(ids))
		for _, line := range wrap(r.doc, 96) {
			fmt.Fprintf(&b, "# %s\n", line)
		}
		for _, id := range ids {
			fmt.Fprintf(&b, "%s %s %s\n", id, vc.profile, derived[id])
		}
	}
	if err := os.WriteFile(vc.file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", vc.file)
}

func wrap(text string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

// oracleArtifactRule explains the recorded outcomes that corpus/oracle-exceptions.txt
// lists as recording artifacts: no installation reproduces those.
func oracleArtifactRule(t *testing.T, profile string) diffRule {
	listed := map[string]bool{}
	if _, err := os.Stat(artifacts); err == nil {
		for id := range readDifferences(t, artifacts, profile) {
			listed[id] = true
		}
	}
	return diffRule{key: "oracle-artifact",
		reason: "recording artifact (corpus/oracle-exceptions.txt)",
		doc:    "corpus/oracle-exceptions.txt lists these recorded outcomes as artifacts of the oracle's runner; no installation reproduces them.",
		match:  func(d difference) bool { return listed[d.c.ID] },
	}
}

// --- predicates -----------------------------------------------------------------------------

func hasScalar(c *tensor.Case, kind tensor.ScalarKind) bool {
	for _, a := range c.Args {
		if a.Scalar != nil && (kind == "" || a.Scalar.Kind == kind) {
			return true
		}
	}
	return false
}

func hasTensorOf(c *tensor.Case, pred func(tensor.DType) bool) bool {
	for _, a := range c.Args {
		if a.Tensor != nil && pred(a.Tensor.DType) {
			return true
		}
	}
	return false
}

func isBinary(c *tensor.Case) bool {
	op, _ := tensor.LookupOp(c.Op)
	return op.Class == tensor.ClassBinary
}

func bothValues(d difference) bool {
	return d.want.Form == tensor.FormValue && d.got.Form == tensor.FormValue
}

func opIn(c *tensor.Case, ops ...string) bool {
	for _, op := range ops {
		if c.Op == op {
			return true
		}
	}
	return false
}

// withinULPs reports whether the outcomes agree but for float elements at most n ulps apart.
func withinULPs(d difference, n int) bool {
	return bothValues(d) && d.cmp.Divergence == tensor.DiffValue && tensor.Compare(d.want, d.got, n).Match()
}

// oneZeroDim reports whether a binary case has two tensors of which exactly one is 0-dim.
func oneZeroDim(c *tensor.Case) bool {
	if !isBinary(c) || hasScalar(c, "") {
		return false
	}
	return (c.Args[0].Tensor.Rank() == 0) != (c.Args[1].Tensor.Rank() == 0)
}

func isIntOrBool(d tensor.DType) bool { return d == tensor.Bool || d.IsInt() }

// --- NumPy 1.24 against NumPy 2.5 -----------------------------------------------------------

var numpy124Rules = []diffRule{
	{key: "no-bfloat16",
		reason: "no bfloat16 without ml_dtypes",
		doc: "NumPy has no bfloat16 dtype of its own; the oracle's NumPy 2.5 ran bf16 through the ml_dtypes " +
			"package, which Debian does not ship, so the adapter answers unsupported for every case with a bf16 " +
			"input or cast target. With ml_dtypes installed these cases run (and this file does not apply).",
		match: func(d difference) bool {
			return d.got.Form == tensor.FormUnsupported && strings.Contains(d.got.Message(), "no bfloat16")
		}},
	{key: "nep50-int-overflow",
		reason: "NumPy 2 raises OverflowError, 1.24 promotes by value",
		doc: "NEP 50 (NumPy 2.0): a Python int operand is weakly typed, takes the array's dtype, and raises " +
			"OverflowError (\"Python integer 300 out of bounds for int8\") when its value does not fit. NumPy 1.24's " +
			"value-based casting instead promotes to a dtype that holds the value (int8 + 300 is int16, uint8 - 1 " +
			"is int16, uint64 * -1 is float64) and computes.",
		match: func(d difference) bool {
			return isBinary(d.c) && hasScalar(d.c, tensor.ScalarInt) && d.want.Form == tensor.FormError &&
				d.want.Class == tensor.OutOfRange && d.got.Form == tensor.FormValue
		}},
	{key: "nep50-scalar",
		reason: "1.24 types the Python scalar by its value",
		doc: "NEP 50: with a Python scalar operand NumPy 2 keeps the array's dtype (i8[] // 1 is i8, " +
			"f32 % 2147483648 is f32). NumPy 1.24 types the scalar by its value (min_scalar_type: 2147483648 is " +
			"uint32, so f32 % 2147483648 is f64), and when every operand is a scalar or 0-dim it types a Python " +
			"int as int64 (i8[] // 1 is i64).",
		match: func(d difference) bool {
			return isBinary(d.c) && hasScalar(d.c, "") && bothValues(d) && d.cmp.Divergence == tensor.DiffDType
		}},
	{key: "nep50-0dim",
		reason: "1.24 treats the 0-dim operand as a value-based scalar",
		doc: "NEP 50: NumPy 2 promotes a 0-dim array operand by its dtype like any array (i8[2] + u8[] is i16, " +
			"f32[2] * f64[] is f64). NumPy 1.24 treats a 0-dim array like a scalar (value-based casting), so the " +
			"n-dim operand's dtype wins whenever the 0-dim value fits it (i8[2] + u8[] is i8).",
		match: func(d difference) bool {
			return oneZeroDim(d.c) && bothValues(d) && d.cmp.Divergence == tensor.DiffDType
		}},
	{key: "int-rounding-dtype",
		reason: "1.24 computes floor/ceil/trunc of integers in float",
		doc: "NumPy 2.x (numpy/numpy#26766, \"support integer dtype inputs in rounding functions\") made np.floor, " +
			"np.ceil and np.trunc of integer and bool arrays return the input dtype (the values are already " +
			"integral). NumPy 1.24 casts to float first: f16 for bool and 8-bit, f32 for 16-bit, f64 for 32- and " +
			"64-bit inputs.",
		match: func(d difference) bool {
			return opIn(d.c, "floor", "ceil", "trunc") && hasTensorOf(d.c, isIntOrBool) && bothValues(d) &&
				d.want.Value.DType == d.c.Args[0].Tensor.DType && d.got.Value.DType.IsFloat()
		}},
	{key: "simd-ulp", machineDependent: true,
		reason: "exp/pow last bit differs between SIMD kernels",
		doc: "Float results of exp and pow that differ in the last bit (at most 1 ulp). Which kernel NumPy " +
			"dispatches decides it: NumPy 1.24 on an AVX-512 CPU uses its AVX512F (SVML) kernels for f64 exp and " +
			"pow (with NPY_DISABLE_CPU_FEATURES=\"AVX512F AVX512_SKX\" exp(-1) is the correctly rounded " +
			"0.36787944117144233 again); the oracle's NumPy 2.5 machine gave other last bits. Neither side is " +
			"correctly rounded everywhere. On a CPU without AVX-512 these cases may match.",
		match: func(d difference) bool { return opIn(d.c, "exp", "pow") && withinULPs(d, 1) }},
}

// --- PyTorch 1.13 against PyTorch 2.11 ------------------------------------------------------

var torch113Rules = []diffRule{
	{key: "no-unsigned",
		reason: "torch 1.13 has no uint16/uint32/uint64",
		doc: "PyTorch 1.13 has no torch.uint16, torch.uint32 or torch.uint64 (they came in 2.3 as dtypes with " +
			"few kernels: the oracle's 2.11 answers many ops on them with NotImplementedError or a promotion " +
			"error), so the adapter cannot build these inputs or cast targets and answers unsupported.",
		match: func(d difference) bool {
			return d.got.Form == tensor.FormUnsupported && strings.Contains(d.got.Message(), "has no uint")
		}},
	{key: "half-cpu-kernels",
		reason: "torch 1.13 has no CPU float16 kernel for this op",
		doc: "PyTorch 1.13's CPU backend has no float16 kernel for exp, sqrt, floor, round, prod or cumsum " +
			"(RuntimeError \"..._cpu\" not implemented for 'Half'); PyTorch 2.x added them, so the oracle " +
			"recorded values.",
		match: func(d difference) bool {
			return d.want.Form == tensor.FormValue && d.got.Form == tensor.FormError &&
				strings.Contains(d.got.Message(), "not implemented for 'Half'")
		}},
	{key: "invert-typeerror",
		reason: "torch 1.13's ~ raises TypeError on float tensors",
		doc: "PyTorch 1.13's Python operator ~ checks the dtype itself and raises TypeError \"~ (operator.invert) " +
			"is only implemented on integer and Boolean-type tensors\" (class Other); 2.x dispatches to " +
			"bitwise_not, whose kernel lookup raises NotImplementedError (UnsupportedDType).",
		match: func(d difference) bool {
			return d.c.Op == "bitwise_not" && d.got.Form == tensor.FormError && strings.Contains(d.got.Message(), "operator.invert")
		}},
	{key: "int-min-div-sigfpe",
		reason: "torch 1.13 traps on INT_MIN / -1 (SIGFPE)",
		doc: "INT_MIN // -1, INT_MIN % -1 and fmod(INT_MIN, -1) run x86-64 idiv in PyTorch 1.13's CPU kernels, " +
			"which traps: the process dies with SIGFPE (the adapter's crash isolation reports it and goes on). " +
			"The oracle's PyTorch 2.11 returns a value for these three (its trunc_div still traps, oracle-00105).",
		match: func(d difference) bool {
			return opIn(d.c, "floor_div", "rem", "fmod") && d.want.Form == tensor.FormValue &&
				d.got.Form == tensor.FormCrash && d.got.Signal == "SIGFPE"
		}},
	{key: "half-scalar-opmath",
		reason: "torch 1.13 rounds the scalar to f16 first",
		doc: "For a float16 tensor and a Python float, PyTorch 1.13's CPU kernel first rounds the scalar to " +
			"float16 (0.1 becomes 0.0999755859375) and multiplies in float16; PyTorch 2.x computes Half ops in " +
			"float32 (opmath) with the scalar in float32 and rounds once.",
		match: func(d difference) bool {
			return isBinary(d.c) && hasScalar(d.c, tensor.ScalarFloat) && hasTensorOf(d.c, func(t tensor.DType) bool { return t == tensor.F16 }) &&
				bothValues(d) && d.cmp.Divergence == tensor.DiffValue
		}},
	{key: "sqrt-ulp", machineDependent: true,
		reason: "torch 2.11's f64 sqrt was 1 ulp off IEEE",
		doc: "The oracle's PyTorch 2.11 CPU gave sqrt(0.5) = 0.7071067811865475, 1 ulp below the correctly " +
			"rounded IEEE square root 0.7071067811865476 that PyTorch 1.13 (and NumPy) return; the recorded value " +
			"comes from 2.11's vectorized kernel on that machine.",
		match: func(d difference) bool { return d.c.Op == "sqrt" && withinULPs(d, 1) }},
}
