package main

import (
	"bufio"
	"fmt"
	"os"
	"strings"

	"github.com/tfuzz/tfuzz/tensor"
)

// exceptionKey names one recorded outcome: a case id and a profile.
type exceptionKey struct{ id, profile string }

// exceptions are recorded outcomes the model does not reproduce on purpose
// (a recording artifact, a value no rule can state), each with its reason.
// They are reported apart from matches and mismatches, never hidden.
type exceptions map[exceptionKey]string

// readExceptions reads files of lines "case-id profile reason...";
// blank lines and lines starting with # are skipped.
func readExceptions(paths []string) (exceptions, error) {
	ex := exceptions{}
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("--exceptions: %w", err)
		}
		sc := bufio.NewScanner(f)
		line := 0
		for sc.Scan() {
			line++
			text := strings.TrimSpace(sc.Text())
			if text == "" || strings.HasPrefix(text, "#") {
				continue
			}
			fields := strings.Fields(text)
			if len(fields) < 3 {
				f.Close()
				return nil, fmt.Errorf("%s:%d: want \"case-id profile reason\"", path, line)
			}
			if !tensor.KnownProfile(fields[1]) {
				f.Close()
				return nil, fmt.Errorf("%s:%d: profile: unknown profile %q", path, line, fields[1])
			}
			reason := strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(text, fields[0]), " "))
			reason = strings.TrimSpace(strings.TrimPrefix(reason, fields[1]))
			ex[exceptionKey{fields[0], fields[1]}] = reason
		}
		err = sc.Err()
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	return ex, nil
}
