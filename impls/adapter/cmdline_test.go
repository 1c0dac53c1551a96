package adapter

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSplitCommand(t *testing.T) {
	tests := []struct {
		name, line string
		env, argv  []string
	}{
		{"words", "python3  impls/a.py\t-x", nil, []string{"python3", "impls/a.py", "-x"}},
		{"single quotes keep everything", `sh -c 'echo "$HOME" \n'`, nil, []string{"sh", "-c", `echo "$HOME" \n`}},
		{"double quotes unescape \" and \\", `a "b \"c\" \\ \n"`, nil, []string{"a", `b "c" \ \n`}},
		{"backslash escapes a blank", `a b\ c`, nil, []string{"a", "b c"}},
		{"quotes join a word", `a'b'"c"d`, nil, []string{"abcd"}},
		{"empty quotes are a word", `a ''`, nil, []string{"a", ""}},
		{"leading assignments are environment", "JAX_PLATFORMS=cpu X_1= python3 a.py Y=2", []string{"JAX_PLATFORMS=cpu", "X_1="}, []string{"python3", "a.py", "Y=2"}},
		{"not a name", "1X=2 prog", nil, []string{"1X=2", "prog"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, argv, err := SplitCommand(tt.line)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([][]string{tt.env, tt.argv}, [][]string{env, argv}); diff != "" {
				t.Errorf("SplitCommand(%q): env, argv (-want +got):\n%s", tt.line, diff)
			}
		})
	}
	for _, bad := range []string{"", "  ", "A=1", `a "b`, `a 'b`} {
		if _, _, err := SplitCommand(bad); err == nil {
			t.Errorf("SplitCommand(%q) succeeded", bad)
		}
	}
}
