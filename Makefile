# SPDX-License-Identifier: GPL-2.0
#
# fast_adaptive: build, test, demo.
#
#   make                 build the module for every supported kernel (KVERS)
#   make KVER=6.1.0-57-amd64     ... for one kernel (headers in /lib/modules)
#   make KDIR=/path/to/build     ... against any configured kernel tree
#   make unit            userspace unit tests of the law (no kernel, no VM)
#   make bench-ack       CPU cost per ACK of the law vs Reno (ns, instructions)
#   make deb             the fast-adaptive-dkms Debian package -> build/deb/
#   make fastctl         the userspace helper, tools/fastctl/fastctl
#   make sim             ns-3 model and the paper's experiments -> sim/RESULTS.md
#   make demo            the PACS study-pull demo in a VM (the main job)
#   make bench           side-by-side benchmarks in a VM -> bench/RESULTS.md
#   make check           everything: deps, builds (W=1, sparse, checkpatch),
#                        unit tests, fuzzing, VM selftests on both kernels, ns-3
#   make stress          the long forms of the stress tests in the VM on every
#                        kernel (1000 flows 60 s, 10 000 connections, 10 min run)
#   make clean

KVERS	?= 6.1.0-57-amd64 6.12.117+deb12-amd64
ifdef KDIR
KVER	:= $(shell cat $(KDIR)/include/config/kernel.release 2>/dev/null)
endif
ifdef KVER
KVERS	:= $(KVER)
endif
KDIR_OF	= $(if $(KDIR),$(KDIR),/lib/modules/$(1)/build)

MOD_SRCS := Kbuild tcp_fast_adaptive.c tcp_fast_adaptive_trace.h
LAW_HDRS := $(wildcard include/fast_adaptive/*.h include/uapi/linux/*.h)
BUILD	:= build

CC	?= cc
CFLAGS_UNIT := -std=c99 -O2 -g -Wall -Wextra -Werror -Wshadow -Wconversion \
	       -Wno-sign-conversion -Iinclude
CLANG	?= clang

.PHONY: all modules unit fuzz check deps clean sparse checkpatch fastctl sim demo bench \
	bench-ack deb stress

# The default target: the module for every kernel in KVERS, and fastctl.
all: modules fastctl

# The main job: a PACS study pull across an emulated WAN, cubic vs bbr vs
# fast_adaptive, in a VM (installs what is missing; about 2 minutes).
demo:
	tools/demo/demo.sh $(if $(KVER),KVER=$(KVER))

# Side-by-side benchmarks in one VM boot -> bench/RESULTS.md (65-70 min on a quiet host: 65 min 2026-12-04, 69 min 2026-12-06).
bench:
	tools/bench/bench.sh $(if $(KVER),KVER=$(KVER))

# The userspace helper (tools/fastctl) and the ns-3 model and experiments.
fastctl:
	$(MAKE) -C tools/fastctl

sim:
	$(MAKE) -C sim full

# One out-of-tree build directory per kernel, so both can coexist.
modules:
	@set -e; for v in $(KVERS); do \
		d=$(BUILD)/$$v; mkdir -p $$d; \
		for f in $(MOD_SRCS) include; do ln -sfn ../../$$f $$d/$$f; done; \
		$(MAKE) -C $(call KDIR_OF,$$v) M=$(CURDIR)/$$d W=1 modules; \
	done

# Build with sparse (C=2 checks every file) and fail on any diagnostic.
sparse:
	@set -e; for v in $(KVERS); do \
		d=$(BUILD)/sparse-$$v; mkdir -p $$d; \
		for f in $(MOD_SRCS) include; do ln -sfn ../../$$f $$d/$$f; done; \
		$(MAKE) -s -C $(call KDIR_OF,$$v) M=$(CURDIR)/$$d W=1 C=2 modules \
			2>&1 | tee $$d/sparse.log; \
		if grep -E 'warning:|error:' $$d/sparse.log; then \
			echo "sparse/W=1 diagnostics for $$v"; exit 1; fi; \
	done

checkpatch:
	@tools/checkpatch.sh

$(BUILD)/unit/test_law: tests/test_law.c tests/tap.h $(LAW_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_UNIT) -fsanitize=undefined -fno-sanitize-recover=all \
		-o $@ tests/test_law.c -lm

unit: $(BUILD)/unit/test_law
	$(BUILD)/unit/test_law

$(BUILD)/fuzz/fuzz_law: tests/fuzz_law.c $(LAW_HDRS)
	@mkdir -p $(@D)
	$(CLANG) -g -O1 -Iinclude -fsanitize=fuzzer,undefined,address \
		-fno-sanitize-recover=all -o $@ tests/fuzz_law.c

FUZZ_SECONDS ?= 30
# what libFuzzer leaves behind when an input fails (-artifact_prefix)
FUZZ_ARTIFACTS = $(foreach k,crash oom timeout leak,$(BUILD)/fuzz/$(k)-*)
fuzz: $(BUILD)/fuzz/fuzz_law
	@mkdir -p $(BUILD)/fuzz/corpus
	@rm -f $(FUZZ_ARTIFACTS)
	$(BUILD)/fuzz/fuzz_law -max_total_time=$(FUZZ_SECONDS) -max_len=512 \
		-artifact_prefix=$(BUILD)/fuzz/ -print_final_stats=1 \
		$(BUILD)/fuzz/corpus || { \
		for a in $(FUZZ_ARTIFACTS); do \
			[ -f "$$a" ] || continue; \
			echo "fuzz: ERROR: input $$a, to replay: $$a as the argument of $<"; \
			od -An -tx1 -v "$$a" | sed 's/^/fuzz: input:/'; \
		done; exit 1; }

# CPU cost of the law's per-ACK path against a Reno-style update: ns per
# ACK, and instructions per ACK under callgrind (tests/bench_ack.c).
$(BUILD)/bench-ack/bench_ack: tests/bench_ack.c $(LAW_HDRS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_UNIT) -o $@ tests/bench_ack.c

bench-ack: $(BUILD)/bench-ack/bench_ack
	@tools/bench-ack.sh $< $(if $(BENCH_ACK_QUICK),--quick)

# The fast-adaptive-dkms Debian package -> build/deb/ (packaging/).
deb:
	@packaging/build-deb.sh

deps:
	@tools/deps.sh

check:
	@tools/check.sh

# The long forms (selftests/Makefile STRESS_PROGS, FA_STRESS=1): fa_flows with
# 1000 flows for 60 s, fa_churn, fa_longrun (one flow for 10 minutes), then
# fa_dmesg; one VM per kernel, about 15 minutes each.  Both kernels run even
# when the first fails; the status is the worst.
STRESS_TESTS = $(patsubst %.sh,%,$(shell $(MAKE) -s -C selftests print-stress))
stress:
	@rc=0; for v in $(KVERS); do \
		FA_STRESS=1 FA_TEST_TIMEOUT=$${FA_TEST_TIMEOUT:-1200} \
			selftests/vmtest.sh -t $${VMTEST_TIMEOUT:-2400} $$v $(STRESS_TESTS) || rc=1; \
	done; \
	exit $$rc

clean:
	rm -rf $(BUILD)
	$(MAKE) -C tools/fastctl clean
	$(MAKE) -C sim clean

# Install into /lib/modules/<kver>/extra (DESTDIR= for staging) and depmod,
# so that the first use of the name autoloads it.
install: modules
	@set -e; for v in $(KVERS); do \
		install -D -m 0644 $(BUILD)/$$v/tcp_fast_adaptive.ko \
			$(DESTDIR)/lib/modules/$$v/extra/tcp_fast_adaptive.ko; \
		if [ -z "$(DESTDIR)" ]; then depmod -a $$v; \
		else depmod -b $(DESTDIR) -a $$v; fi; \
	done

DKMS_VER := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
DKMS_SRC := /usr/src/fast_adaptive-$(DKMS_VER)

# Register the sources with DKMS, which rebuilds them for new kernels.
dkms:
	rm -rf $(DKMS_SRC)
	mkdir -p $(DKMS_SRC)
	cp -r dkms.conf Kbuild tcp_fast_adaptive.c tcp_fast_adaptive_trace.h \
		include $(DKMS_SRC)/
	dkms add fast_adaptive/$(DKMS_VER) 2>/dev/null || true
	@set -e; for v in $(KVERS); do \
		dkms build fast_adaptive/$(DKMS_VER) -k $$v; \
	done

.PHONY: install dkms
