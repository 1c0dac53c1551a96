#include "textflag.h"

// The streaming select of storage words (selectnt.go): SSE2 (baseline
// amd64), 64 bytes of each operand per iteration, the output stored with
// MOVNTDQ (MOVNTO), which writes around the cache and so skips the
// read-for-ownership of every output line. The caller passes a 16-byte
// aligned dst and n a multiple of 8 words.
//
// Per 64-bit lane: X14 holds the mask twice; c&mask is compared with zero as
// two 32-bit halves (PCMPEQL), the halves swapped (PSHUFD $0xB1) and ANDed,
// which gives all ones where c&mask == 0 (pick f) and zero elsewhere (pick
// t); dst = f&z | t&^z (PANDN computes ^z & t).

// func selectNT(dst, c, t, f *uint64, n int, mask uint64)
TEXT ·selectNT(SB), NOSPLIT, $0-48
	MOVQ dst+0(FP), DI
	MOVQ c+8(FP), SI
	MOVQ t+16(FP), DX
	MOVQ f+24(FP), BX
	MOVQ n+32(FP), CX
	MOVQ mask+40(FP), X14
	PUNPCKLQDQ X14, X14
	PXOR X15, X15
	SHRQ $3, CX
	JZ   done
loop:
	MOVOU 0(SI), X0
	MOVOU 16(SI), X1
	MOVOU 32(SI), X2
	MOVOU 48(SI), X3
	PAND  X14, X0
	PAND  X14, X1
	PAND  X14, X2
	PAND  X14, X3
	PCMPEQL X15, X0
	PCMPEQL X15, X1
	PCMPEQL X15, X2
	PCMPEQL X15, X3
	PSHUFD $0xB1, X0, X4
	PSHUFD $0xB1, X1, X5
	PSHUFD $0xB1, X2, X6
	PSHUFD $0xB1, X3, X7
	PAND  X4, X0
	PAND  X5, X1
	PAND  X6, X2
	PAND  X7, X3
	MOVOU 0(BX), X8
	MOVOU 16(BX), X9
	MOVOU 32(BX), X10
	MOVOU 48(BX), X11
	PAND  X0, X8
	PAND  X1, X9
	PAND  X2, X10
	PAND  X3, X11
	MOVOU 0(DX), X4
	MOVOU 16(DX), X5
	MOVOU 32(DX), X6
	MOVOU 48(DX), X7
	PANDN X4, X0
	PANDN X5, X1
	PANDN X6, X2
	PANDN X7, X3
	POR   X8, X0
	POR   X9, X1
	POR   X10, X2
	POR   X11, X3
	MOVNTO X0, 0(DI)
	MOVNTO X1, 16(DI)
	MOVNTO X2, 32(DI)
	MOVNTO X3, 48(DI)
	ADDQ $64, SI
	ADDQ $64, DX
	ADDQ $64, BX
	ADDQ $64, DI
	DECQ CX
	JNZ  loop
done:
	SFENCE
	RET
