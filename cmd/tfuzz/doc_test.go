package main

import (
	"flag"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

var update = flag.Bool("update", false, "rewrite the generated parts of docs/case-format.md")

const caseFormatDoc = "../../docs/case-format.md"

// TestCaseFormatDoc: the profile and op tables of docs/case-format.md are
// those the model and the catalog give (go test ./cmd/tfuzz -run
// TestCaseFormatDoc -update rewrites them), and the document names every op.
func TestCaseFormatDoc(t *testing.T) {
	data, err := os.ReadFile(caseFormatDoc)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for _, part := range []struct{ name, text string }{{"profiles", profilesMarkdown()}, {"ops", opsMarkdown()}} {
		re := regexp.MustCompile(`(?s)(<!-- ` + part.name + `: generated[^\n]*-->\n)(.*?)(<!-- end ` + part.name + ` -->)`)
		m := re.FindStringSubmatch(doc)
		if m == nil {
			t.Fatalf("%s: no generated %s section", caseFormatDoc, part.name)
		}
		if m[2] != part.text {
			if !*update {
				t.Errorf("%s: the %s table is stale (go test ./cmd/tfuzz -run TestCaseFormatDoc -update)", caseFormatDoc, part.name)
			}
			doc = strings.Replace(doc, m[0], m[1]+part.text+m[3], 1)
		}
	}
	if *update {
		if err := os.WriteFile(caseFormatDoc, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, op := range tensor.Ops {
		if !strings.Contains(doc, "| `"+op.Name+"` |") {
			t.Errorf("%s does not describe op %s", caseFormatDoc, op.Name)
		}
	}
}

// TestDocExamples: the document's example lines are docs/examples.jsonl,
// which covers every kind of op and evaluates without error.
func TestDocExamples(t *testing.T) {
	doc, err := os.ReadFile(caseFormatDoc)
	if err != nil {
		t.Fatal(err)
	}
	examples, err := os.ReadFile("../../docs/examples.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "```json\n"+string(examples)+"```") {
		t.Errorf("%s does not show docs/examples.jsonl as it is", caseFormatDoc)
	}
	cases, err := tensor.ReadFile("../../docs/examples.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	classes := map[tensor.OpClass]bool{}
	for _, c := range cases {
		op, _ := tensor.LookupOp(c.Op)
		classes[op.Class] = true
	}
	for _, op := range tensor.Ops {
		if !classes[op.Class] {
			t.Errorf("docs/examples.jsonl has no example of an op like %s", op.Name)
		}
	}
	if code, out, stderr := runTfuzz(t, "eval", "../../docs/examples.jsonl"); code != exitClean {
		t.Errorf("eval of the examples: exit %d\n%s%s", code, out, stderr)
	}
}
