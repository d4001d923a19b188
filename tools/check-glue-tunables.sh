#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The kernel glue lists every tunable of fa_params.h by hand three times:
# its fa_tunables[] initializer, its fa_module_param() line and its
# MODULE_PARM_DESC() line.  A missing initializer row compiles and reads 0
# (path_settle ran with its mechanism off that way, 2026-12-05), and until
# now only the VM's fa_tunables test noticed.  This checks, on the host and
# without a kernel, that every id of enum fa_param_id has all three, with the
# matching name, and that nothing else is listed.
#
#   tools/check-glue-tunables.sh [fa_params.h] [tcp_fast_adaptive.c]
# Prints one line per missing or stray row, then a summary; exits 1 on any.
# One result for tools/check.sh (it prints no "N passed" line of its own).
set -u
cd "$(dirname "$0")/.."
hdr=${1:-include/fast_adaptive/fa_params.h}
glue=${2:-tcp_fast_adaptive.c}

for f in "$hdr" "$glue"; do
	[ -r "$f" ] || { echo "check-glue-tunables: cannot read $f" >&2; exit 2; }
done

# The ids, in enum order, without FA_P_COUNT.
ids=$(sed -n '/^enum fa_param_id {/,/^};/p' "$hdr" |
	grep -oE '^[[:space:]]*FA_P_[A-Z0-9_]+' | sed 's/^[[:space:]]*//' |
	grep -vx 'FA_P_COUNT')
if [ -z "$ids" ]; then
	echo "check-glue-tunables: no enum fa_param_id in $hdr" >&2
	exit 2
fi

# The glue's initializer block only, so that a row elsewhere does not count.
init=$(sed -n '/^static unsigned int fa_tunables\[FA_P_COUNT\] = {/,/^};/p' "$glue")
if [ -z "$init" ]; then
	echo "check-glue-tunables: no fa_tunables[FA_P_COUNT] initializer in $glue" >&2
	exit 2
fi

pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "check-glue-tunables: $glue: $*"; fail=$((fail + 1)); }

for id in $ids; do
	up=${id#FA_P_}
	name=$(tr 'A-Z' 'a-z' <<<"$up")
	if grep -qE "^[[:space:]]*\[$id\][[:space:]]*= FA_${up}_DEFAULT,\$" <<<"$init"; then
		ok
	else
		bad "fa_tunables[] has no row [$id] = FA_${up}_DEFAULT (the tunable would read 0)"
	fi
	if grep -qE "^fa_module_param\($name, $id\);\$" "$glue"; then
		ok
	else
		bad "no fa_module_param($name, $id);"
	fi
	if grep -qE "^MODULE_PARM_DESC\($name, FA_PARAM_DESC\(FA_$up\)\);\$" "$glue"; then
		ok
	else
		bad "no MODULE_PARM_DESC($name, FA_PARAM_DESC(FA_$up));"
	fi
done

# Nothing listed that the enum does not have (a renamed or removed tunable).
n_ids=$(wc -w <<<"$ids")
n_rows=$(grep -cE '^[[:space:]]*\[FA_P_[A-Z0-9_]+\]' <<<"$init")
n_params=$(grep -cE '^fa_module_param\(' "$glue")
n_descs=$(grep -cE '^MODULE_PARM_DESC\([a-z0-9_]+, FA_PARAM_DESC\(' "$glue")
for what in "initializer rows:$n_rows" "fa_module_param lines:$n_params" \
	    "MODULE_PARM_DESC lines:$n_descs"; do
	if [ "${what##*:}" = "$n_ids" ]; then
		ok
	else
		bad "${what%%:*} ${what##*:}, enum fa_param_id has $n_ids tunables"
	fi
done

echo "glue tunables: $n_ids tunables in $glue, $pass checks agree, $fail do not"
[ "$fail" = 0 ]
