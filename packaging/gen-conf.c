// SPDX-License-Identifier: GPL-2.0
/*
 * gen-conf: the example configuration files of the Debian package, from
 * the tunables' table (include/fast_adaptive/fa_params.h), so that the
 * examples always list every tunable with its default, range and meaning.
 * Every setting is commented out: installing the package changes nothing
 * until an administrator uncomments a line.
 *
 *   gen-conf modprobe > /etc/modprobe.d/fast_adaptive.conf
 *   gen-conf sysctl   > /etc/sysctl.d/90-fast_adaptive.conf
 */
#include <stdio.h>
#include <string.h>

#include "fast_adaptive/fa_params.h"

static void modprobe_conf(void)
{
	int i;

	puts("# /etc/modprobe.d/fast_adaptive.conf: tunables of tcp_fast_adaptive at load time.\n"
	     "#\n"
	     "# Every line is commented out: the module's defaults apply.  Uncomment and edit\n"
	     "# to change a default; it takes effect the next time the module loads.  The same\n"
	     "# tunables can be changed live in /sys/module/tcp_fast_adaptive/parameters/ or\n"
	     "# with 'fastctl params NAME=VALUE'; 'modinfo tcp_fast_adaptive' lists them.\n"
	     "# A value out of range makes the module refuse to load.");
	for (i = 0; i < FA_P_COUNT; i++) {
		const struct fa_param_desc *d = &fa_param_descs[i];

		printf("#\n# %s: %s\n# range %u..%u\n#options tcp_fast_adaptive %s=%u\n",
		       d->name, d->help, d->min, d->max, d->name, d->def);
	}
}

static void sysctl_conf(void)
{
	puts("# /etc/sysctl.d/90-fast_adaptive.conf: make fast_adaptive the default.\n"
	     "#\n"
	     "# Commented out: installing the package changes no socket.  Uncomment to make\n"
	     "# fast_adaptive the congestion control of every new TCP connection at boot\n"
	     "# (the module loads itself when the name is first asked for); apply now with\n"
	     "# 'sysctl --system'.  Per route instead:\n"
	     "#   ip route replace PREFIX via GATEWAY congctl fast_adaptive\n"
	     "# and per socket: setsockopt(TCP_CONGESTION, \"fast_adaptive\").\n"
	     "#\n"
	     "#net.ipv4.tcp_congestion_control = fast_adaptive\n"
	     "#\n"
	     "# With the module's pacing=1, the fq qdisc paces in the qdisc instead of\n"
	     "# TCP's internal pacing timer:\n"
	     "#net.core.default_qdisc = fq");
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "modprobe"))
		modprobe_conf();
	else if (argc == 2 && !strcmp(argv[1], "sysctl"))
		sysctl_conf();
	else {
		fputs("usage: gen-conf modprobe|sysctl\n", stderr);
		return 2;
	}
	return fflush(stdout) ? 1 : 0;
}
