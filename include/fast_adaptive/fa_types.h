/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Host shim for the fast_adaptive control law.
 *
 * The law in fa_law.h is pure fixed-point C.  It needs only fixed-width
 * integers, bool and a 64-by-32 bit division.  In the kernel these come from
 * <linux/types.h> and <linux/math64.h>; in userspace (unit tests, fuzzers,
 * fastctl) and in the ns-3 model (C++) this file provides the same names.
 */
#ifndef _FA_TYPES_H
#define _FA_TYPES_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/math64.h>
#else
#include <stdint.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef int32_t s32;
typedef uint64_t u64;

static inline u64 div_u64_rem(u64 dividend, u32 divisor, u32 *remainder)
{
	*remainder = (u32)(dividend % divisor);
	return dividend / divisor;
}

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}
#endif /* __KERNEL__ */

#endif /* _FA_TYPES_H */
