package tensor

import (
	"strings"
	"testing"
)

// decodeErrorRow is a malformed case line and the error it must get: the
// field it names and a part of its message.
type decodeErrorRow struct{ name, line, field, msg string }

// checkDecodeErrors decodes each row's line and checks its DecodeError.
func checkDecodeErrors(t *testing.T, rows []decodeErrorRow) {
	t.Helper()
	for _, tt := range rows {
		t.Run(tt.name, func(t *testing.T) {
			_, err := DecodeCase([]byte(tt.line))
			de, ok := err.(*DecodeError)
			if !ok || de.Field != tt.field || !strings.Contains(de.Error(), tt.msg) {
				t.Errorf("got %v, want an error at %s containing %q", err, tt.field, tt.msg)
			}
		})
	}
}
