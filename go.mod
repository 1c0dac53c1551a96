module github.com/tfuzz/tfuzz

go 1.26

require github.com/x448/float16 v0.8.4

require (
	github.com/spf13/pflag v1.1.0 // indirect
	pgregory.net/rapid v1.3.0 // indirect
)
