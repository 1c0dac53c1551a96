#include "textflag.h"

// Streaming adds for large contiguous operands: SSE2 (baseline amd64) adds,
// 64 bytes per iteration, stored with MOVNTDQ (MOVNTO), which writes around
// the cache and so skips the read-for-ownership of every output line. The
// caller passes a 16-byte aligned dst and n a multiple of 64 bytes.

// func addI64NT(dst, a, b *int64, n int)
TEXT ·addI64NT(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	SHRQ $3, CX
	JZ   doneI64
loopI64:
	MOVOU 0(SI), X0
	MOVOU 16(SI), X1
	MOVOU 32(SI), X2
	MOVOU 48(SI), X3
	MOVOU 0(DX), X4
	MOVOU 16(DX), X5
	MOVOU 32(DX), X6
	MOVOU 48(DX), X7
	PADDQ X4, X0
	PADDQ X5, X1
	PADDQ X6, X2
	PADDQ X7, X3
	MOVNTO X0, 0(DI)
	MOVNTO X1, 16(DI)
	MOVNTO X2, 32(DI)
	MOVNTO X3, 48(DI)
	ADDQ $64, SI
	ADDQ $64, DX
	ADDQ $64, DI
	DECQ CX
	JNZ  loopI64
doneI64:
	SFENCE
	RET

// func addF32NT(dst, a, b *float32, n int)
TEXT ·addF32NT(SB), NOSPLIT, $0-32
	MOVQ dst+0(FP), DI
	MOVQ a+8(FP), SI
	MOVQ b+16(FP), DX
	MOVQ n+24(FP), CX
	SHRQ $4, CX
	JZ   doneF32
loopF32:
	MOVUPS 0(SI), X0
	MOVUPS 16(SI), X1
	MOVUPS 32(SI), X2
	MOVUPS 48(SI), X3
	MOVUPS 0(DX), X4
	MOVUPS 16(DX), X5
	MOVUPS 32(DX), X6
	MOVUPS 48(DX), X7
	ADDPS X4, X0
	ADDPS X5, X1
	ADDPS X6, X2
	ADDPS X7, X3
	MOVNTO X0, 0(DI)
	MOVNTO X1, 16(DI)
	MOVNTO X2, 32(DI)
	MOVNTO X3, 48(DI)
	ADDQ $64, SI
	ADDQ $64, DX
	ADDQ $64, DI
	DECQ CX
	JNZ  loopF32
doneF32:
	SFENCE
	RET
