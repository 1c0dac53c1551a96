#include "textflag.h"

// The streaming encode of 32-bit values into storage words (buffer.go
// mapWords): SSE2 (baseline amd64), 8 values per iteration, each
// zero-extended to its word (PUNPCKLLQ / PUNPCKHLQ, that is PUNPCKLDQ and
// PUNPCKHDQ, with a zero register) and stored with MOVNTDQ (MOVNTO), which
// skips the read-for-ownership of every output line. The caller passes a
// 16-byte aligned dst and n a multiple of 8.

// func widen32NT(dst *uint64, src *uint32, n int)
TEXT ·widen32NT(SB), NOSPLIT, $0-24
	MOVQ dst+0(FP), DI
	MOVQ src+8(FP), SI
	MOVQ n+16(FP), CX
	PXOR X15, X15
	SHRQ $3, CX
	JZ   done
loop:
	MOVOU 0(SI), X0
	MOVOU 16(SI), X1
	MOVO  X0, X2
	MOVO  X1, X3
	PUNPCKLLQ X15, X0
	PUNPCKHLQ X15, X2
	PUNPCKLLQ X15, X1
	PUNPCKHLQ X15, X3
	MOVNTO X0, 0(DI)
	MOVNTO X2, 16(DI)
	MOVNTO X1, 32(DI)
	MOVNTO X3, 48(DI)
	ADDQ $32, SI
	ADDQ $64, DI
	DECQ CX
	JNZ  loop
done:
	SFENCE
	RET
