package metal

import (
	"fmt"
	"math"
)

// Twins of gemv.metal: gemv_T_bm.._nc0_axpby0 and gemv_t_T_bm.._nc0_axpby0
// for float32 float16 bfloat16 and candle's twelve blocks. One call runs
// one threadgroup: each output's sum is computed lane by lane in the
// kernel's order, the lanes' sums added by the shuffle-down tree, the
// simdgroups' by the threadgroup reduction, each + and * a float
// operation rounded to nearest (the order kept: assumption
// kernel-order-kept). Two things are left open: a thread's acc += x * v
// may be contracted to one fma under fast math, so a step whose fused
// and separate results differ is loose; and a product or sum that is a
// subnormal float may be flushed, so it is loose too.

// gemvBlocks are candle's gemv and gemv_t blocks (gemv.metal:503-519):
// BM BN SM SN TM TN.
var gemvBlocks = map[string][][6]int{
	"gemv":   {{1, 8, 1, 32, 4, 4}, {1, 8, 1, 32, 1, 4}, {1, 1, 8, 4, 4, 4}, {1, 1, 8, 4, 1, 4}, {4, 1, 1, 32, 1, 4}, {4, 1, 1, 32, 4, 4}, {8, 1, 1, 32, 4, 4}},
	"gemv_t": {{1, 2, 8, 4, 4, 1}, {1, 2, 8, 4, 4, 4}, {1, 4, 8, 4, 4, 4}, {1, 16, 8, 4, 4, 4}, {1, 16, 4, 8, 4, 4}},
}

// gemvTypeName is the dtype in a gemv kernel's name (mlx_gemm.rs:390-394).
func gemvTypeName(t mslType) string {
	return map[mslType]string{tFloat: "float32", tHalf: "float16", tBfloat: "bfloat16"}[t]
}

// gemvName is a gemv kernel's name (mlx_gemm.rs:395-399).
func gemvName(kind string, t mslType, b [6]int) string {
	return fmt.Sprintf("%s_%s_bm%d_bn%d_sm%d_sn%d_tm%d_tn%d_nc0_axpby0", kind, gemvTypeName(t), b[0], b[1], b[2], b[3], b[4], b[5])
}

func init() {
	for kind, blocks := range gemvBlocks {
		for _, b := range blocks {
			for _, t := range gemmTypes {
				register("gemv", gemvName(kind, t, b), "bbbccccccccccc", twin{tg: gemvKernel(kind == "gemv_t", t, b)})
			}
		}
	}
}

// gemvKernel is gemv<T, ...> (transposed false) or gemv_t<T, ...>. args:
// mat, vec, out, in_size, out_size, ld, alpha, beta, batch_ndim,
// batch_shape, vector_batch_stride, matrix_batch_stride,
// bias_batch_stride, bias_stride.
func gemvKernel(transposed bool, t mslType, b [6]int) func([]Arg, *tgroup) {
	bm, bn, sm, sn, tm, tn := b[0], b[1], b[2], b[3], b[4], b[5]
	return func(a []Arg, g *tgroup) {
		if int(g.size[0]) != 32 || int(g.size[1]) != bn || int(g.size[2]) != bm {
			panic(memoryFault(fmt.Sprintf("gemv: a threadgroup of %v threads, the kernel is written for (32, %d, %d)", g.size, bn, bm)))
		}
		in, out, ld := int(int32(a[3].uint())), int(int32(a[4].uint())), int(int32(a[5].uint()))
		z := int64(g.pos[2])
		vs, _ := a[10].sizeTIn(0)
		ms, _ := a[11].sizeTIn(0)
		k := gemvRun{t: t, mat: a[0], vec: a[1], vecOff: uint64(int64(vs) * z), matOff: uint64(int64(ms) * z), in: in, ld: ld}
		outOff := uint64(z) * uint64(out)
		if transposed {
			k.runT(a[2], outOff, out, int(g.pos[0]), bn, sm, sn, tm, tn)
			return
		}
		k.run(a[2], outOff, out, int(g.pos[0]), bm, bn, sm, sn, tm, tn)
	}
}

// gemvRun holds what every lane of one gemv threadgroup reads.
type gemvRun struct {
	t              mslType
	mat, vec       Arg
	vecOff, matOff uint64
	in, ld         int
}

func (k gemvRun) vecAt(i int) val { return toFloat(k.t, load(k.vec, k.t, k.vecOff+uint64(i))) }

func (k gemvRun) matAt(r, c int) val {
	return toFloat(k.t, load(k.mat, k.t, k.matOff+uint64(r*k.ld+c)))
}

// run is gemv's threadgroup x: per simdgroup row sg_m and lane row
// lane_m, the TM rows it owns (moved back to end at out), each the sum
// over its BN simdgroups of the tree over its SN lanes of each lane's
// sum over its k.
func (k gemvRun) run(dst Arg, outOff uint64, out, x, bm, bn, sm, sn, tm, tn int) {
	blockM, blockN := bm*sm*tm, bn*sn*tn
	for sgM := 0; sgM < bm; sgM++ {
		for laneM := 0; laneM < sm; laneM++ {
			row := x*blockM + (sm*sgM+laneM)*tm
			if row >= out {
				continue
			}
			if row+tm > out {
				row = out - tm
			}
			for r := 0; r < tm; r++ {
				var total val
				for sgN := 0; sgN < bn; sgN++ {
					lanes := make([]val, sn)
					for laneN := range lanes {
						acc := floatVal(0)
						kk := (sn*sgN + laneN) * tn
						full := k.in / blockN
						for it := 0; it < full; it, kk = it+1, kk+blockN {
							for c := 0; c < tn; c++ {
								acc = mulAdd(acc, k.matAt(row+r, kk+c), k.vecAt(kk+c))
							}
						}
						if k.in-full*blockN > 0 {
							for c := 0; c < tn; c++ {
								x, v := floatVal(0), floatVal(0)
								if kk+c < k.in {
									x, v = k.matAt(row+r, kk+c), k.vecAt(kk+c)
								}
								acc = mulAdd(acc, x, v)
							}
						}
						lanes[laneN] = acc
					}
					sum := shuffleTree(lanes)
					if sgN == 0 {
						total = sum
					} else {
						total = floatAdd(total, sum)
					}
				}
				var forced dotForcing
				for kk := 0; kk < k.in; kk++ {
					forced.add(k.matAt(row+r, kk), k.vecAt(kk))
				}
				store(dst, k.t, outOff+uint64(row+r), convert(tFloat, k.t, forced.settle(total)))
			}
		}
	}
}

// runT is gemv_t's threadgroup x (one simdgroup along k): per simdgroup
// column sg_n and lane column lane_n, the TN columns it owns (moved back
// to end at out), each the tree over its SM lane rows of each lane's sum
// over its k.
func (k gemvRun) runT(dst Arg, outOff uint64, out, x, bn, sm, sn, tm, tn int) {
	blockM, blockN := sm*tm, bn*sn*tn
	for sgN := 0; sgN < bn; sgN++ {
		for laneN := 0; laneN < sn; laneN++ {
			col := x*blockN + (sn*sgN+laneN)*tn
			if col >= out {
				continue
			}
			if col+tn > out {
				col = out - tn
			}
			for c := 0; c < tn; c++ {
				lanes := make([]val, sm)
				for laneM := range lanes {
					acc := floatVal(0)
					kk := laneM * tm
					full := k.in / blockM
					for it := 0; it < full; it, kk = it+1, kk+blockM {
						for r := 0; r < tm; r++ {
							acc = mulAdd(acc, k.vecAt(kk+r), k.matAt(kk+r, col+c))
						}
					}
					for r := 0; r < tm && kk+r < k.in; r++ {
						acc = mulAdd(acc, k.vecAt(kk+r), k.matAt(kk+r, col+c))
					}
					lanes[laneM] = acc
				}
				var forced dotForcing
				for kk := 0; kk < k.in; kk++ {
					forced.add(k.vecAt(kk), k.matAt(kk, col+c))
				}
				store(dst, k.t, outOff+uint64(col+c), convert(tFloat, k.t, forced.settle(shuffleTree(lanes))))
			}
		}
	}
}

// shuffleTree is lane 0's value after x += simd_shuffle_down(x, d) for d
// = n/2, ..., 1 over n lanes: at each level lane l < d adds lane l + d.
func shuffleTree(lanes []val) val {
	v := append([]val{}, lanes...)
	for d := len(v) / 2; d >= 1; d /= 2 {
		for l := 0; l < d; l++ {
			v[l] = floatAdd(v[l], v[l+d])
		}
	}
	return v[0]
}

// floatAdd is a float + b, loose where it is a subnormal (it may be
// flushed).
func floatAdd(a, b val) val { return flushOpen(arith('+', tFloat, a, b)) }

// mulAdd is acc + x * v in float: the product rounded, then the sum, or,
// contracted, one fma; loose where the two differ or a subnormal appears
// (dotForcing settles the NaNs and infinities no order changes).
func mulAdd(acc, x, v val) val {
	p := flushOpen(arith('*', tFloat, x, v))
	sum := flushOpen(arith('+', tFloat, acc, p))
	if sum.undef {
		return sum
	}
	fused := fmaF32(x.f, v.f, acc.f)
	if fused != sum.f && !(math.IsNaN(fused) && math.IsNaN(sum.f)) {
		sum.loose = true
	}
	return sum
}

// flushOpen marks a subnormal float result loose.
func flushOpen(x val) val {
	if x.f != 0 && math.Abs(x.f) < 0x1p-126 {
		x.loose = true
	}
	return x
}
