#!/usr/bin/env python3
"""math_trigf_bound.py — the relative error bounds of the float sin/cos/tan batch kernel
(builtins/bi_math_trigf.c), computed from the proof in spec-notes/math.md ("Fast float sin, cos,
tan"). Inputs: the range 2^20, R = 0.786 >= max |r|, the constants C3 and |pi/2 - C1 - C2 - C3| and
m = 2^-27.832 (all printed by bench/math_trigf_exhaustive). Error factors are combined as
(1 + e1)(1 + e2)... - 1 without forming 1 + e in floating point (which would lose e).

usage: python3 bench/math_trigf_bound.py
"""
from math import cos, cosh, factorial, log2, sin, sinh

u = 2.0 ** -53


def comb(*es):
    """(1 + e1)(1 + e2)... - 1"""
    r = 0.0
    for e in es:
        r = r + e + r * e
    return r


def gamma(n):
    return n * u / (1 - n * u)


XMAX, R = 2.0 ** 20, 0.786
z = R * R
C3 = float.fromhex("0x1.3198a2e037073p-69")
DELTA = 2.0 ** -122.9
m = 2.0 ** -27.832

# reduction: |r^ - r| <= u|v| + u|RN(v) - RN(kC3)| + u|kC3| + |k Delta|, |v| <= |r|(1 + tail)
kc3, kd = XMAX * C3, XMAX * DELTA
tail = (kc3 + kd) / m
eps_r = 2 * u * (1 + tail) + u * u * (1 + tail) + (u * kc3 + kd) / m * (1 + u)
sin_ratio, cos_min = sin(R) / R, cos(R)
red_s = eps_r / sin_ratio                      # |sin r^ - sin r| <= |r^ - r|, |sin r| >= 0.9002 |r|
red_c = eps_r * sin(R) * R / cos_min           # |cos r^ - cos r| <= sin(R)|r^ - r|
red_t = eps_r * 2 * R / sin(2 * R)             # condition number of tan and cot: 2r / sin 2r

# sin: S = r + RN(RN(r z) P^(z)), P of degree 6
P = [(-1) ** (j + 1) / factorial(2 * j + 3) for j in range(7)]
A = sum(abs(P[j]) * z ** j for j in range(7))
p = abs(sum(P[j] * z ** j for j in range(7)))
B = sum(j * abs(P[j]) * z ** j for j in range(7)) * (1 + 8 * u)
eps_p = (gamma(12) * (1 + u) * A + u * A + u * B) / p
eps_t = comb(u, u, u, eps_p)                   # z's rounding in r z, the product, the multiplication
ts = 1 - sin_ratio                             # |t| / |r| <= 1 - sin(R)/R
eval_s = eps_t * ts / sin_ratio + u * (1 + eps_t * ts / sin_ratio)
trunc_s = R ** 16 / factorial(17) / sin_ratio
sin_tot = comb(eval_s, trunc_s, red_s)

# cos: C = 1 + RN(z Q^(z)), Q of degree 7
Q = [(-1) ** (j + 1) / factorial(2 * j + 2) for j in range(8)]
A = sum(abs(Q[j]) * z ** j for j in range(8))
q = abs(sum(Q[j] * z ** j for j in range(8)))
B = sum(j * abs(Q[j]) * z ** j for j in range(8)) * (1 + 9 * u)
eps_q = (gamma(14) * (1 + u) * A + u * A + u * B) / q
eps_t = comb(u, u, eps_q)                      # z's rounding, the product
tc = 1 - cos_min                               # |t| <= 1 - cos R, C >= cos R
eval_c = eps_t * tc / cos_min + u * (1 + eps_t * tc / cos_min)
trunc_c = R ** 18 / factorial(18) / cos_min
cos_tot = comb(eval_c, trunc_c, red_c)

# tan = RN(S / C) or RN(-C / S)
es, ec = comb(eval_s, trunc_s), comb(eval_c, trunc_c)
tan_tot = comb(es, ec / (1 - ec), u, red_t)

print(f"reduction: |r^ - r| <= {eps_r / u:.6f} u |r|; carried: sin {red_s / u:.3f}u cos {red_c / u:.3f}u tan {red_t / u:.3f}u")
print(f"sin: Horner P {eps_p / u:.3f}u, evaluation {eval_s / u:.3f}u, truncation {trunc_s / u:.3f}u (2^{log2(trunc_s):.2f})")
print(f"cos: Horner Q {eps_q / u:.3f}u, evaluation {eval_c / u:.3f}u, truncation {trunc_c / u:.3f}u (2^{log2(trunc_c):.2f})")
for name, tot in (("sin", sin_tot), ("cos", cos_tot), ("tan", tan_tot)):
    print(f"{name} total: {tot / u:.3f} u = 2^{log2(tot):.2f}")
print(f"sum ratios at z = R^2: P {sum(abs(P[j]) * z ** j for j in range(7)) / p:.4f}, "
      f"Q {(cosh(R) - 1) / z / q:.4f} (sinh check {(sinh(R) / R - 1) / z:.6f})")
