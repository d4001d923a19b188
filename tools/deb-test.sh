#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deb-test.sh - the fast-adaptive-dkms package on this host, end to end.
#
#   tools/deb-test.sh [KVER...]    (default: 6.1.0-57-amd64 6.12.117+deb12-amd64)
#
# Builds the .deb (packaging/build-deb.sh), installs it with dpkg -i and
# checks that DKMS built and installed tcp_fast_adaptive.ko for every KVER
# (dkms status, the module file, modinfo: vermagic and every tunable with
# its range), that fastctl, its man page and the commented-out examples are
# in place, and that a kernel (re)install rebuilds the module through DKMS's
# kernel hook.  Then dpkg -r and dpkg -P must leave nothing: no
# /usr/src/fast_adaptive-*, no module under /lib/modules/*/updates or extra,
# no DKMS entry, no file of the package.  Needs root and the kernels'
# headers (tools/deps.sh).  Ends with "N passed, N failed".  About 2 minutes
# (three module builds).
set -eu
REPO=$(cd "$(dirname "$0")/.." && pwd)
PKG=fast-adaptive-dkms
KVERS=${*:-${KVERS:-6.1.0-57-amd64 6.12.117+deb12-amd64}}
pass=0 fail=0
ok() { echo "ok: $*"; pass=$((pass + 1)); }
nok() { echo "FAIL: $*"; fail=$((fail + 1)); }
check() { # description command...
	local d=$1
	shift
	if "$@"; then ok "$d"; else nok "$d"; fi
}
die() { echo "deb-test: $*" >&2; exit 2; }
# a non-empty file whose every line is a comment or blank
commented_out() { [ -s "$1" ] && ! grep -vqE '^[[:space:]]*(#|$)' "$1"; }

[ "$(id -u)" = 0 ] || die "needs root (dpkg -i)"
for t in dpkg dkms modinfo; do
	command -v "$t" >/dev/null 2>&1 || die "'$t' not found (tools/deps.sh)"
done
NAME=$(sed -n 's/^PACKAGE_NAME="\(.*\)"$/\1/p' "$REPO/dkms.conf")
VER=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$REPO/dkms.conf")
for v in $KVERS; do
	[ -e "/lib/modules/$v/build/include" ] ||
		die "no headers for $v (apt-get install linux-headers-$v)"
done
# Never take over an installation that is not ours to remove.
if dpkg-query -W -f='${Status}' "$PKG" 2>/dev/null | grep -q 'ok installed'; then
	die "$PKG is installed already: dpkg -P $PKG first (this test removes it)"
fi
if dkms status -m "$NAME" 2>/dev/null | grep -q .; then
	die "DKMS has $NAME already ($(dkms status -m "$NAME" | head -n 1)): dkms remove $NAME/$VER --all first"
fi
[ ! -e "/usr/src/$NAME-$VER" ] ||
	die "/usr/src/$NAME-$VER exists and is not the package's: remove it first"

t0=$SECONDS
T=$(mktemp -d)
cleanup() {
	# a failed run must not leave the package behind
	if dpkg-query -W -f='${Status}' "$PKG" 2>/dev/null | grep -q 'installed'; then
		echo "deb-test: purging $PKG"
		dpkg -P "$PKG" >/dev/null 2>&1 || true
	fi
	rm -rf "$T"
}
trap cleanup EXIT

# --- build ------------------------------------------------------------------
"$REPO/packaging/build-deb.sh" "$T/deb" > "$T/build.log" 2>&1 ||
	{ cat "$T/build.log"; die "building the package failed"; }
deb=$(tail -n 1 "$T/build.log")
head -n -1 "$T/build.log"
check "the package is $PKG $VER-1" \
	[ "$(dpkg-deb -f "$deb" Package Version | tr '\n' ' ')" = "Package: $PKG Version: $VER-1 " ]
check "it depends on dkms" grep -q '^Depends: dkms' <(dpkg-deb -f "$deb")
contents=$(dpkg-deb -c "$deb" | awk '{ print $6 }' | sed 's|^\./|/|')
for f in "/usr/src/$NAME-$VER/dkms.conf" "/usr/src/$NAME-$VER/Kbuild" \
	 "/usr/src/$NAME-$VER/tcp_fast_adaptive.c" \
	 "/usr/src/$NAME-$VER/include/fast_adaptive/fa_law.h" \
	 /usr/sbin/fastctl /usr/share/man/man8/fastctl.8.gz \
	 "/etc/modprobe.d/$NAME.conf" "/etc/sysctl.d/90-$NAME.conf"; do
	check "the package holds $f" grep -qxF "$f" <<<"$contents"
done
check "the examples are conffiles" \
	[ "$(dpkg-deb -I "$deb" conffiles | sort | tr '\n' ' ')" = "/etc/modprobe.d/$NAME.conf /etc/sysctl.d/90-$NAME.conf " ]

# --- install ----------------------------------------------------------------
t1=$SECONDS
if dpkg -i "$deb" > "$T/install.log" 2>&1; then
	ok "dpkg -i ($((SECONDS - t1)) s)"
else
	nok "dpkg -i"
	sed 's/^/  | /' "$T/install.log"
fi
grep -E '^fast-adaptive-dkms:|rror' "$T/install.log" | sed 's/^/  | /' || true
check "dpkg: installed" grep -q 'install ok installed' \
	<(dpkg-query -W -f='${Status}' "$PKG" 2>/dev/null)

ntun=$(grep -c '= FA_PARAM_ROW(' "/usr/src/$NAME-$VER/include/fast_adaptive/fa_params.h" || true)
modfile() { # kver: the installed module (DKMS compresses it as the kernel's own are)
	ls "/lib/modules/$1/updates/dkms/tcp_fast_adaptive.ko"* 2>/dev/null | head -n 1
}
re() { sed 's/[][\.*^$+?(){}|]/\\&/g' <<<"$1"; }	# a literal in an ERE
check_kernel() { # kver
	local v=$1 m n
	check "dkms status: $NAME/$VER installed for $v" \
		grep -qE "^$(re "$NAME/$VER, $v, ")[^:]+: installed" \
		<(dkms status -m "$NAME" -v "$VER" -k "$v" 2>/dev/null)
	m=$(modfile "$v")
	check "module file for $v (${m:-none})" [ -n "$m" ]
	[ -n "$m" ] || return 0
	check "modinfo vermagic of $v" grep -qE "^vermagic: +$(re "$v") " <(/sbin/modinfo "$m")
	n=$(/sbin/modinfo "$m" | grep -cE '^parm: +[a-z_]+:.*\[[0-9]+\.\.[0-9]+, default [0-9]+\]' || true)
	check "modinfo of $v: $n tunables with ranges, fa_params.h has $ntun" \
		[ "$n" -ge 1 -a "$n" = "$ntun" ]
	check "modinfo -k $v tcp_fast_adaptive finds it (depmod ran)" \
		[ "$(/sbin/modinfo -k "$v" -n tcp_fast_adaptive 2>/dev/null)" = "$m" ]
}
for v in $KVERS; do
	check_kernel "$v"
done
check "fastctl runs" grep -q '^fastctl ' <(/usr/sbin/fastctl --version)
check "fastctl's man page" [ -s /usr/share/man/man8/fastctl.8.gz ]
for f in "/etc/modprobe.d/$NAME.conf" "/etc/sysctl.d/90-$NAME.conf"; do
	check "$f: every line commented out" commented_out "$f"
done
check "modprobe example lists every tunable ($ntun)" \
	[ "$(grep -c '^#options tcp_fast_adaptive ' "/etc/modprobe.d/$NAME.conf")" = "$ntun" ]
check "modprobe reads the examples without complaint" \
	[ -z "$(/sbin/modprobe -c 2>&1 >/dev/null | grep -i "$NAME")" ]

# --- a kernel (re)install: DKMS's kernel hook rebuilds the module ------------
kv=${KVERS##* }
dkms uninstall -m "$NAME" -v "$VER" -k "$kv" >/dev/null 2>&1
dkms unbuild -m "$NAME" -v "$VER" -k "$kv" >/dev/null 2>&1 || true
check "module removed from $kv for the kernel-hook test" [ -z "$(modfile "$kv")" ]
t1=$SECONDS
if /etc/kernel/postinst.d/dkms "$kv" > "$T/hook.log" 2>&1; then
	ok "kernel hook /etc/kernel/postinst.d/dkms $kv ($((SECONDS - t1)) s)"
else
	nok "kernel hook /etc/kernel/postinst.d/dkms $kv"
	sed 's/^/  | /' "$T/hook.log"
fi
check_kernel "$kv"

# --- remove, then purge -------------------------------------------------------
leftovers() { # what of ours is still on the system, one per line
	ls -d /usr/src/"$NAME"-* 2>/dev/null || true
	ls /lib/modules/*/updates/dkms/tcp_fast_adaptive.ko* /lib/modules/*/extra/tcp_fast_adaptive.ko* \
		/lib/modules/*/updates/tcp_fast_adaptive.ko* 2>/dev/null || true
	dkms status -m "$NAME" 2>/dev/null || true
	[ ! -e /usr/sbin/fastctl ] || echo /usr/sbin/fastctl
	[ ! -e /usr/share/man/man8/fastctl.8.gz ] || echo /usr/share/man/man8/fastctl.8.gz
	[ ! -e "/usr/share/doc/$PKG" ] || echo "/usr/share/doc/$PKG"
}
if dpkg -r "$PKG" > "$T/remove.log" 2>&1; then
	ok "dpkg -r"
else
	nok "dpkg -r"
	sed 's/^/  | /' "$T/remove.log"
fi
left=$(leftovers)
check "dpkg -r left nothing of the module or fastctl${left:+: $(echo $left)}" [ -z "$left" ]
check "dpkg -r kept the conffiles (Debian policy)" \
	[ -e "/etc/modprobe.d/$NAME.conf" -a -e "/etc/sysctl.d/90-$NAME.conf" ]
for v in $KVERS; do
	check "modinfo -k $v no longer finds tcp_fast_adaptive (depmod ran)" \
		[ -z "$(/sbin/modinfo -k "$v" -n tcp_fast_adaptive 2>/dev/null)" ]
done
if dpkg -P "$PKG" > "$T/purge.log" 2>&1; then
	ok "dpkg -P"
else
	nok "dpkg -P"
	sed 's/^/  | /' "$T/purge.log"
fi
left="$(leftovers)$(ls -d "/etc/modprobe.d/$NAME.conf" "/etc/sysctl.d/90-$NAME.conf" "/var/lib/dkms/$NAME" 2>/dev/null || true)"
check "dpkg -P left nothing${left:+: $(echo $left)}" [ -z "$left" ]
check "dpkg no longer knows $PKG" \
	[ -z "$(dpkg-query -W -f='${Status}' "$PKG" 2>/dev/null | grep -v 'not-installed')" ]

echo "deb-test: $((SECONDS - t0)) s"
echo "deb-test: $pass passed, $fail failed"
[ "$fail" = 0 ]
