/*
 * bi_half.h — exact IEEE 754 binary16 ("half") conversions, used by the builtins (vload_half*,
 * vstore_half*, half arithmetic) and by the executor (OpFConvert to and from 16-bit floats).
 *
 * OpenCL C 3.0 §6.3.1.1 "The half Data Type": half -> float/double is lossless; float -> half and
 * double -> half are correctly rounded (to 11 bits of precision); half denormals produced or consumed
 * by vstore_half/vload_half are never flushed. The four rounding modes are those of the SPIR-V
 * FPRoundingMode decoration / OpenCL.std vstore_half*_r literal (SPIR-V 3.16).
 *
 * Everything here works on bit patterns with integer arithmetic, so results do not depend on the
 * host's rounding mode, FPU flags or compiler. NaN policy (no spec mandates a payload; OpenCL C §7.5
 * "Edge Case Behavior" only requires results to be quiet NaNs): the sign and the top payload bits
 * are kept and the quiet bit is set, as x86 SSE/F16C and OpenCL-Headers' cl_half.h do.
 */
#ifndef BI_HALF_H
#define BI_HALF_H

#include <stdint.h>

/* Rounding modes, numbered like SpvFPRoundingMode (RTE = 0 ... RTN = 3). */
typedef enum bi_round { BI_RTE = 0, BI_RTZ = 1, BI_RTP = 2, BI_RTN = 3 } bi_round;

/* Lossless widening. */
float bi_half_to_float(uint16_t h);
double bi_half_to_double(uint16_t h);

/* Correctly rounded narrowing in mode r (any value of r other than RTZ/RTP/RTN means RTE).
 * Overflow gives infinity or the largest finite half (0x7bff, with the sign) as the mode dictates:
 * RTE -> inf, RTZ -> max, RTP -> +inf / -max, RTN -> +max / -inf. double -> half rounds once,
 * from the double value (never through float). */
uint16_t bi_half_from_float(float f, bi_round r);
uint16_t bi_half_from_double(double d, bi_round r);

/* The same on raw bit patterns (an IEEE binary32 / binary64 pattern in, a binary16 pattern out). */
uint16_t bi_half_from_f32bits(uint32_t bits, bi_round r);
uint16_t bi_half_from_f64bits(uint64_t bits, bi_round r);

#endif
