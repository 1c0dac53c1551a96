package adapter

import (
	"fmt"
	"strings"
)

// SplitCommand splits a command line into words the way a POSIX shell does
// for a simple command: blanks separate words, single quotes keep
// everything literally, double quotes keep everything but \" \\ \$ \`, and a
// backslash outside quotes escapes the next character. Leading NAME=value
// words are returned apart, as environment assignments. Nothing else of the
// shell is interpreted (no $expansion, globbing, pipes or redirections): to
// use them, run the command through "sh -c '...'".
func SplitCommand(line string) (env, argv []string, err error) {
	var words []string
	var cur strings.Builder
	inWord := false
	for i := 0; i < len(line); i++ {
		ch := line[i]
		switch {
		case ch == ' ' || ch == '\t' || ch == '\n':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		case ch == '\'':
			inWord = true
			end := strings.IndexByte(line[i+1:], '\'')
			if end < 0 {
				return nil, nil, fmt.Errorf("command %q: unterminated single quote", line)
			}
			cur.WriteString(line[i+1 : i+1+end])
			i += end + 1
		case ch == '"':
			inWord = true
			j := i + 1
			for ; j < len(line) && line[j] != '"'; j++ {
				if line[j] == '\\' && j+1 < len(line) && strings.IndexByte("\"\\$`", line[j+1]) >= 0 {
					j++
				}
				cur.WriteByte(line[j])
			}
			if j >= len(line) {
				return nil, nil, fmt.Errorf("command %q: unterminated double quote", line)
			}
			i = j
		case ch == '\\':
			inWord = true
			if i+1 < len(line) {
				i++
				cur.WriteByte(line[i])
			}
		default:
			inWord = true
			cur.WriteByte(ch)
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	for len(words) > 0 && isAssignment(words[0]) {
		env = append(env, words[0])
		words = words[1:]
	}
	if len(words) == 0 {
		return nil, nil, fmt.Errorf("command %q: no program to run", line)
	}
	return env, words, nil
}

// isAssignment reports whether w is NAME=value with a shell variable name.
func isAssignment(w string) bool {
	name, _, ok := strings.Cut(w, "=")
	if !ok || name == "" {
		return false
	}
	for i, r := range name {
		letter := r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z')
		if !letter && (i == 0 || r < '0' || r > '9') {
			return false
		}
	}
	return true
}
