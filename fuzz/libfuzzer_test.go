package fuzz

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tfuzz/tfuzz/tensor"
)

// TestLibFuzzerFraming checks the reading of a []byte argument from a
// libFuzzer input by the pinned go-118-fuzz-build (go-fuzz-headers GetBytes),
// row by row, and that every framed corpus input reads back as itself.
func TestLibFuzzerFraming(t *testing.T) {
	rows := []struct {
		name, reason string
		in           []byte
		want         string // "" with err
		err          bool
	}{
		{"exact", "a length equal to the bytes left takes them all", []byte("\x00\x00\x00\x03abc"), "abc", false},
		{"shorter", "a smaller length takes a prefix", []byte("\x00\x00\x00\x02abc"), "ab", false},
		{"longer", "a larger length is taken modulo the bytes left", []byte("\x00\x00\x00\x05abc"), "ab", false},
		{"multiple", "a multiple of the bytes left gives an empty argument", []byte("\x00\x00\x00\x06abc"), "", false},
		{"zero", "a zero length counts as 30", []byte("\x00\x00\x00\x00abcdefgh"), "abcdef", false},
		{"no data", "a length and nothing after it: the target does not run", []byte("\x00\x00\x00\x01"), "", true},
		{"short", "fewer than 4 bytes: the target does not run", []byte("\x00\x01"), "", true},
	}
	for _, r := range rows {
		got, err := DecodeLibFuzzerInput(r.in)
		if (err != nil) != r.err || string(got) != r.want {
			t.Errorf("%s (%s): got %q, %v; want %q, error %v", r.name, r.reason, got, err, r.want, r.err)
		}
	}
	inputs, err := CorpusInputs("../corpus")
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range inputs {
		if back, err := DecodeLibFuzzerInput(EncodeLibFuzzerInput(in)); err != nil || !bytes.Equal(back, in) {
			t.Fatalf("framing does not round-trip %q: %q, %v", in, back, err)
		}
	}
}

// TestReadCrashInput reads one case in each format a fuzzing engine stores
// it in, and checks that what is not a case is said to be so, with the field.
func TestReadCrashInput(t *testing.T) {
	line := []byte(`{"op": "add", "args": [{"dtype": "i8", "shape": [1], "data": [127]}, {"dtype": "i8", "shape": [1], "data": [1]}]}`)
	for _, r := range []struct {
		name, format string
		raw          []byte
	}{
		{"libFuzzer", FormatLibFuzzer, EncodeLibFuzzerInput(line)},
		{"go test -fuzz", FormatGoCorpus, EncodeGoCorpusFile(line)},
		{"case line", FormatCase, append(line, '\n')},
	} {
		c, data, format, err := ReadCrashInput(r.raw)
		if err != nil || format != r.format || c.Op != "add" || !bytes.Contains(data, []byte(`"add"`)) {
			t.Errorf("%s: got %v, %q, %v", r.name, c, format, err)
		}
	}
	bad := []byte(`{"op": "neg", "args": [{"dtype": "i9", "shape": [1], "data": [1]}]}`)
	for _, raw := range [][]byte{EncodeLibFuzzerInput(bad), bad, EncodeGoCorpusFile(bad)} {
		_, _, _, err := ReadCrashInput(raw)
		var de *tensor.DecodeError
		if err == nil || !asDecodeError(err, &de) || !strings.Contains(de.Field, "dtype") {
			t.Errorf("%q: want a decode error naming the dtype field, got %v", raw, err)
		}
	}
	if _, _, _, err := ReadCrashInput([]byte{1, 2}); err == nil || !strings.Contains(err.Error(), "4-byte length") {
		t.Errorf("a 2-byte input: got %v", err)
	}
}

func asDecodeError(err error, de **tensor.DecodeError) bool {
	e, ok := err.(*tensor.DecodeError)
	*de = e
	return ok
}

// TestLibFuzzerBuild runs scripts/libfuzzer-build.sh: every target built by
// go-118-fuzz-build and linked with libFuzzer by clang, each run on its seed
// corpus. It needs clang with libFuzzer and the Go module proxy, and takes
// minutes, so it runs only with TFUZZ_LIBFUZZER=1 (seconds per target from
// TFUZZ_LIBFUZZER_SECONDS, default 10).
func TestLibFuzzerBuild(t *testing.T) {
	if os.Getenv("TFUZZ_LIBFUZZER") != "1" {
		t.Skip("set TFUZZ_LIBFUZZER=1 to build and run the libFuzzer targets (needs clang, libclang-rt-14-dev)")
	}
	if _, err := exec.LookPath("clang"); err != nil && os.Getuid() != 0 {
		t.Skip("no clang, and not root to install it")
	}
	secs := os.Getenv("TFUZZ_LIBFUZZER_SECONDS")
	if secs == "" {
		secs = "10"
	}
	out := t.TempDir()
	cmd := exec.Command("bash", filepath.Join("scripts", "libfuzzer-build.sh"), "--seconds", secs, "--out", out)
	cmd.Dir = ".."
	b, err := cmd.CombinedOutput()
	t.Logf("%s", b)
	if err != nil {
		t.Fatalf("scripts/libfuzzer-build.sh: %v", err)
	}
}
