package fuzz

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tfuzz/tfuzz/tensor"
)

// The libFuzzer builds of the targets (go-118-fuzz-build, as OSS-Fuzz and
// ClusterFuzzLite run it) do not hand a target's []byte argument the raw
// libFuzzer input. Its testing.F reads each argument of the f.Fuzz callback
// from the input with go-fuzz-headers; for the one []byte argument of these
// targets that is:
//
//	input = L (4 bytes, big-endian) ++ rest
//	L == 0 counts as 30; unless L == len(rest), L becomes L mod len(rest)
//	argument = rest[:L]; fewer than 5 bytes: the callback does not run
//
// So a seed corpus for those builds holds framed inputs
// (EncodeLibFuzzerInput), and a crash input they write is unframed
// (DecodeLibFuzzerInput) to get the case bytes back. Pinned with the tool
// version in scripts/libfuzzer-build.sh; a test checks both directions.

// EncodeLibFuzzerInput frames data as the libFuzzer input from which the
// libFuzzer build of a target passes exactly data to it. data must not be
// empty (no framed input yields an empty argument of length 0 reliably).
func EncodeLibFuzzerInput(data []byte) []byte {
	out := make([]byte, 4, 4+len(data))
	binary.BigEndian.PutUint32(out, uint32(len(data)))
	return append(out, data...)
}

// DecodeLibFuzzerInput returns the argument the libFuzzer build of a target
// passed to it for the libFuzzer input in, or an error when the build did
// not call the target at all for that input.
func DecodeLibFuzzerInput(in []byte) ([]byte, error) {
	if len(in) < 4 {
		return nil, fmt.Errorf("%d bytes: shorter than the 4-byte length that precedes the case bytes", len(in))
	}
	rest := in[4:]
	if len(rest) == 0 {
		return nil, errors.New("a length and no case bytes after it")
	}
	n := binary.BigEndian.Uint32(in[:4])
	if n == 0 {
		n = 30
	}
	if n != uint32(len(rest)) {
		n %= uint32(len(rest))
	}
	return rest[:n], nil
}

// goCorpusHeader opens the corpus files of go test -fuzz
// (testdata/fuzz/<target>/<hash>).
const goCorpusHeader = "go test fuzz v1\n"

// EncodeGoCorpusFile writes data as a go test -fuzz corpus file of a target
// with one []byte argument.
func EncodeGoCorpusFile(data []byte) []byte {
	return []byte(goCorpusHeader + "[]byte(" + strconv.Quote(string(data)) + ")\n")
}

// DecodeGoCorpusFile reads the []byte argument of a go test -fuzz corpus file.
func DecodeGoCorpusFile(file []byte) ([]byte, error) {
	body, ok := bytes.CutPrefix(file, []byte(goCorpusHeader))
	if !ok {
		return nil, errors.New(`not a go test -fuzz corpus file (no "go test fuzz v1" line)`)
	}
	lines := strings.Split(strings.TrimSpace(string(body)), "\n")
	if len(lines) != 1 {
		return nil, fmt.Errorf("go test -fuzz corpus file with %d values; these targets take one []byte", len(lines))
	}
	v, ok := strings.CutPrefix(strings.TrimSpace(lines[0]), "[]byte(")
	if ok {
		v, ok = strings.CutSuffix(v, ")")
	}
	if !ok {
		return nil, fmt.Errorf("line 2: want []byte(\"...\"), got %.40q", lines[0])
	}
	s, err := strconv.Unquote(v)
	if err != nil {
		return nil, fmt.Errorf("line 2: %v", err)
	}
	return []byte(s), nil
}

// Input formats ReadCrashInput recognizes.
const (
	FormatLibFuzzer = "libFuzzer input (go-118-fuzz-build framing)"
	FormatGoCorpus  = "go test -fuzz corpus file"
	FormatCase      = "case-format line"
)

// ReadCrashInput turns an input that made a target fail, as a fuzzing
// engine stored it, into the case it decodes to: a libFuzzer crash input of
// the go-118-fuzz-build targets (ClusterFuzzLite, OSS-Fuzz,
// scripts/libfuzzer-build.sh), a go test -fuzz corpus file
// (testdata/fuzz/<target>/<hash>), or a plain case-format line. It returns
// the case, the bytes the target saw, and the format; an input that is
// none of these yields an error, a *tensor.DecodeError when the bytes are
// there but are not a case.
func ReadCrashInput(raw []byte) (c *tensor.Case, data []byte, format string, err error) {
	if bytes.HasPrefix(raw, []byte(goCorpusHeader)) {
		data, err := DecodeGoCorpusFile(raw)
		if err != nil {
			return nil, nil, FormatGoCorpus, err
		}
		c, err := tensor.DecodeCase(data)
		return c, data, FormatGoCorpus, err
	}
	framed, ferr := DecodeLibFuzzerInput(raw)
	if ferr == nil {
		if c, err := tensor.DecodeCase(framed); err == nil {
			return c, framed, FormatLibFuzzer, nil
		}
	}
	if c, err := tensor.DecodeCase(raw); err == nil {
		return c, raw, FormatCase, nil
	}
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) > 0 && trimmed[0] == '{' {
		_, err := tensor.DecodeCase(raw)
		return nil, raw, FormatCase, err
	}
	if ferr != nil {
		return nil, nil, FormatLibFuzzer, ferr
	}
	_, err = tensor.DecodeCase(framed)
	return nil, framed, FormatLibFuzzer, err
}
