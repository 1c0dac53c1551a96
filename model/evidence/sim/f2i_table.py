#!/usr/bin/env python3
"""Print the float->int rule outputs of every profile for a grid of edge inputs (one row per
(source, value), one column per destination), as Markdown. Vector-body position assumed for
pytorch/cpu and numpy u32 (see notes for the scalar tail)."""
import math
import casts_sim as S

VALS = ['nan', 'inf', '-inf', '1e20', '-1e20', '9.3e18', '4294967296.0', '2147483648.0',
        '-2147483649.0', '65535.5', '255.5', '-2.7', '-128.5', '-0.0']
DSTS = ['bool', 'u8', 'i8', 'u16', 'i16', 'u32', 'i32', 'u64', 'i64']
PROFS = ['pytorch/cpu', 'numpy', 'pytorch/cuda', 'jax/cpu-x64']
for prof in PROFS:
    print('\n#### %s\n' % prof)
    print('| src | x (after rounding to src) | ' + ' | '.join(DSTS) + ' |')
    print('|' + '---|' * (2 + len(DSTS)))
    for src in ['f32', 'f64', 'f16', 'bf16']:
        for t in VALS:
            x = S.rnd(float(t), src)
            row = []
            for d in DSTS:
                v = S.cast_elem(prof, src, d, x, 0, 64)  # pos 0 of 64: vector body
                row.append(str(v).lower() if d == 'bool' else str(v))
            print('| %s | %s | %s |' % (src, repr(x), ' | '.join(row)))
