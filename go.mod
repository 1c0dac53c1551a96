module github.com/tfuzz/tfuzz

go 1.26

require (
	github.com/google/go-cmp v0.7.0
	github.com/spf13/pflag v1.1.0
	github.com/x448/float16 v0.8.4
	pgregory.net/rapid v1.3.0
)
