package cpu

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// The engine against the real frameworks: every recorded case of the ops
// of the reduction, cumsum, index and creation families (corpus/oracle),
// replayed under the CPU profiles
// the recording has, compared with what the framework did. Records the
// project excuses (corpus/oracle-exceptions.txt) are skipped and counted.

// oracleDir is where the recorded outcomes live, relative to this package.
const oracleDir = "../../corpus/oracle"

// oracleClasses are the op classes whose families this replay covers.
var oracleClasses = map[tensor.OpClass]bool{
	tensor.ClassReduce: true, tensor.ClassCumsum: true, tensor.ClassIndexSelect: true,
	tensor.ClassFromLiteral: true, tensor.ClassArange: true, tensor.ClassZeros: true,
	tensor.ClassFromVec: true, tensor.ClassToHost: true,
}

// oracleExceptions reads the excused (case id, profile) records.
func oracleExceptions(t *testing.T) map[[2]string]bool {
	ex := map[[2]string]bool{}
	f, err := os.Open("../../corpus/oracle-exceptions.txt")
	if err != nil {
		t.Logf("no exceptions file: %v", err)
		return ex
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if fs := strings.Fields(line); len(fs) >= 2 {
			ex[[2]string{fs[0], fs[1]}] = true
		}
	}
	return ex
}

type oracleCount struct{ matched, mismatched, declined, excused int }

func TestOracleReplay(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(oracleDir, "*.jsonl"))
	if len(files) == 0 {
		t.Fatalf("no recorded outcomes in %s", oracleDir)
	}
	ex := oracleExceptions(t)
	e := New()
	counts := map[string]*oracleCount{}
	var failures []string
	for _, file := range files {
		cases, err := tensor.ReadFile(file)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for _, c := range cases {
			info, ok := tensor.LookupOp(c.Op)
			if !ok || !oracleClasses[info.Class] {
				continue
			}
			for _, rec := range c.Expect {
				if lookupProfile(rec.Profile) == nil {
					continue // not a CPU profile of this engine
				}
				n := counts[rec.Profile]
				if n == nil {
					n = &oracleCount{}
					counts[rec.Profile] = n
				}
				switch {
				case ex[[2]string{c.ID, rec.Profile}]:
					n.excused++
					continue
				case !e.Supports(rec.Profile, c):
					n.declined++
					continue
				}
				got := e.Eval(rec.Profile, c)
				cmp := tensor.Compare(rec.Outcome, got, c.Attrs.ToleranceULPs)
				if cmp.Match() {
					n.matched++
					continue
				}
				n.mismatched++
				failures = append(failures, fmt.Sprintf("%s %s %s\n  recorded: %s\n  engine:   %s\n  %s",
					c.ID, rec.Profile, c.Describe(), rec.Outcome, got, cmp.Detail))
			}
		}
	}
	names := make([]string, 0, len(counts))
	for p := range counts {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		n := counts[p]
		t.Logf("%-18s matched %4d  mismatched %d  declined %d  excused %d", p, n.matched, n.mismatched, n.declined, n.excused)
	}
	if len(failures) > 0 {
		t.Errorf("%d recorded outcomes differ:\n%s", len(failures), strings.Join(failures, "\n"))
	}
}
