/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A minimal TAP producer for the userspace tests.  Each TEST() is one TAP
 * result; it fails if any CHECK() inside it fails.  The run ends with the
 * plan and a closing line "N passed, N failed".
 */
#ifndef _FA_TAP_H
#define _FA_TAP_H

#include <stdio.h>

struct tap_test {
	const char *name;
	void (*fn)(void);
};

static int tap_cur_failed;
static unsigned long tap_checks;

#define CHECK(cond, ...)						\
	do {								\
		tap_checks++;						\
		if (!(cond)) {						\
			if (!tap_cur_failed)				\
				printf("# %s:%d: CHECK(%s) failed: ",	\
				       __FILE__, __LINE__, #cond);	\
			else						\
				printf("# %s:%d: also: ", __FILE__,	\
				       __LINE__);			\
			printf(__VA_ARGS__);				\
			printf("\n");					\
			tap_cur_failed = 1;				\
		}							\
	} while (0)

#define CHECK_EQ(a, b)							\
	CHECK((unsigned long long)(a) == (unsigned long long)(b),	\
	      "%s = %llu, expected %llu", #a,			\
	      (unsigned long long)(a), (unsigned long long)(b))

#define TEST(fn) { #fn, fn }

static int tap_run(const struct tap_test *tests, int n)
{
	int i, passed = 0, failed = 0;

	printf("TAP version 13\n1..%d\n", n);
	for (i = 0; i < n; i++) {
		tap_cur_failed = 0;
		tests[i].fn();
		printf("%s %d - %s\n", tap_cur_failed ? "not ok" : "ok", i + 1,
		       tests[i].name);
		if (tap_cur_failed)
			failed++;
		else
			passed++;
	}
	printf("# %lu checks\n", tap_checks);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}

#endif /* _FA_TAP_H */
