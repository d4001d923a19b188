# SPDX-License-Identifier: GPL-2.0
#
# Command line shared by bench.sh and demo.sh (sourced):
#   [--report-only] [KVER=version]
# Sets KVER (default 6.1.0-57-amd64) and report_only (0 or 1); a usage error
# exits 2.
KVER=6.1.0-57-amd64
report_only=0
for a in "$@"; do
	case $a in
	KVER=*) KVER=${a#KVER=} ;;
	--report-only) report_only=1 ;;
	*) echo "usage: $0 [--report-only] [KVER=version]" >&2; exit 2 ;;
	esac
done
