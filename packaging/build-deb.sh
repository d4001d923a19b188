#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-deb.sh - make deb: the fast-adaptive-dkms Debian package.
#
#   packaging/build-deb.sh [OUTDIR]       (default build/deb)
#
# A hand-made binary package (dpkg-deb, no debhelper) holding:
#   /usr/src/fast_adaptive-VERSION/       the module's sources and dkms.conf,
#                                         built by DKMS for every kernel with
#                                         headers on install (postinst) and
#                                         for every later kernel (AUTOINSTALL)
#   /usr/sbin/fastctl, fastctl.8          the helper and its man page
#   /etc/modprobe.d/fast_adaptive.conf    examples, every line commented out
#   /etc/sysctl.d/90-fast_adaptive.conf   (conffiles; generated from the
#                                         tunables' table by gen-conf.c)
# VERSION is dkms.conf's PACKAGE_VERSION; the Debian version adds "-1".
# Prints the path of the .deb on the last line.  No root needed.
set -eu
REPO=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:-$REPO/build/deb}
PKG=fast-adaptive-dkms

die() { echo "build-deb: $*" >&2; exit 1; }
for t in dpkg-deb dpkg-buildflags gzip cc make objdump md5sum; do
	command -v "$t" >/dev/null 2>&1 ||
		die "'$t' not found (tools/deps.sh installs what the build needs)"
done

NAME=$(sed -n 's/^PACKAGE_NAME="\(.*\)"$/\1/p' "$REPO/dkms.conf")
UPVER=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$REPO/dkms.conf")
[ -n "$NAME" ] && [ -n "$UPVER" ] ||
	die "no PACKAGE_NAME or PACKAGE_VERSION in $REPO/dkms.conf"
grep -q '^AUTOINSTALL="yes"$' "$REPO/dkms.conf" ||
	die "$REPO/dkms.conf must say AUTOINSTALL=\"yes\" (new kernels get the module)"
VERSION=$UPVER-1
ARCH=$(dpkg --print-architecture)
DEB=$OUT/${PKG}_${VERSION}_$ARCH.deb
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
	SOURCE_DATE_EPOCH=$(git -C "$REPO" log -1 --format=%ct 2>/dev/null || date +%s)
fi
export SOURCE_DATE_EPOCH

rm -rf "$OUT/root" "$OUT/src"
mkdir -p "$OUT"
R=$OUT/root

# --- the module's sources, as DKMS builds them ------------------------------
S=$R/usr/src/$NAME-$UPVER
install -d -m 0755 "$S"
install -m 0644 "$REPO/dkms.conf" "$REPO/Kbuild" "$REPO/tcp_fast_adaptive.c" \
	"$REPO/tcp_fast_adaptive_trace.h" "$S/"
for h in "$REPO"/include/fast_adaptive/*.h "$REPO"/include/uapi/linux/*.h; do
	install -D -m 0644 "$h" "$S/${h#"$REPO"/}"
done

# --- fastctl, built afresh with Debian's hardening flags ---------------------
mkdir -p "$OUT/src/tools"
cp -r "$REPO/include" "$OUT/src/"
cp -r "$REPO/tools/fastctl" "$OUT/src/tools/"
make -s -C "$OUT/src/tools/fastctl" clean
CFLAGS="$(dpkg-buildflags --get CFLAGS) $(dpkg-buildflags --get CPPFLAGS)" \
LDFLAGS="$(dpkg-buildflags --get LDFLAGS)" \
	make -s -C "$OUT/src/tools/fastctl" fastctl ||
	die "building fastctl failed"
install -D -m 0755 "$OUT/src/tools/fastctl/fastctl" "$R/usr/sbin/fastctl"
strip --strip-unneeded --remove-section=.comment --remove-section=.note \
	"$R/usr/sbin/fastctl"
install -d -m 0755 "$R/usr/share/man/man8"
gzip -9n < "$REPO/tools/fastctl/fastctl.8" > "$R/usr/share/man/man8/fastctl.8.gz"
chmod 0644 "$R/usr/share/man/man8/fastctl.8.gz"

# --- the commented-out examples ---------------------------------------------
cc -std=c99 -O2 -Wall -Wextra -Werror -I"$REPO/include" \
	-o "$OUT/src/gen-conf" "$REPO/packaging/gen-conf.c"
install -d -m 0755 "$R/etc/modprobe.d" "$R/etc/sysctl.d"
"$OUT/src/gen-conf" modprobe > "$R/etc/modprobe.d/$NAME.conf"
"$OUT/src/gen-conf" sysctl > "$R/etc/sysctl.d/90-$NAME.conf"
chmod 0644 "$R/etc/modprobe.d/$NAME.conf" "$R/etc/sysctl.d/90-$NAME.conf"
for f in "$R/etc/modprobe.d/$NAME.conf" "$R/etc/sysctl.d/90-$NAME.conf"; do
	! grep -vqE '^[[:space:]]*(#|$)' "$f" || die "${f#"$R"} has a line not commented out"
done

# --- documentation ----------------------------------------------------------
D=$R/usr/share/doc/$PKG
install -d -m 0755 "$D"
install -m 0644 "$REPO/packaging/copyright" "$D/copyright"
{
	echo "$PKG ($VERSION) unstable; urgency=medium"
	echo
	echo "  * Built from $(git -C "$REPO" describe --always --dirty 2>/dev/null || echo "a source tree")."
	echo
	echo " -- fast_adaptive developers <maintainers@users.noreply.a-seed-822a0a28.example>  $(date -u -R -d "@$SOURCE_DATE_EPOCH")"
} | gzip -9n > "$D/changelog.Debian.gz"
chmod 0644 "$D/changelog.Debian.gz"

# --- control files ----------------------------------------------------------
glibc=$(objdump -T "$R/usr/sbin/fastctl" | grep -o 'GLIBC_[0-9][0-9.]*' |
	sed 's/GLIBC_//' | sort -V | tail -n 1)
[ -n "$glibc" ] || die "cannot tell which glibc fastctl needs"
size=$(du -sk --apparent-size "$R" | cut -f1)
install -d -m 0755 "$R/DEBIAN"
sed -e "s/@VERSION@/$VERSION/" -e "s/@ARCH@/$ARCH/g" -e "s/@SIZE@/$size/" \
	-e "s/@LIBC@/libc6 (>= $glibc)/" "$REPO/packaging/control.in" > "$R/DEBIAN/control"
for s in postinst prerm postrm; do
	sed -e "s/@NAME@/$NAME/" -e "s/@VERSION@/$UPVER/" \
		"$REPO/packaging/$s" > "$R/DEBIAN/$s"
	chmod 0755 "$R/DEBIAN/$s"
done
printf '/etc/modprobe.d/%s.conf\n/etc/sysctl.d/90-%s.conf\n' "$NAME" "$NAME" > "$R/DEBIAN/conffiles"
(cd "$R" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' |
	LC_ALL=C sort -z | xargs -0 md5sum) > "$R/DEBIAN/md5sums"
chmod 0644 "$R/DEBIAN/control" "$R/DEBIAN/conffiles" "$R/DEBIAN/md5sums"
find "$R" -type d -exec chmod 0755 {} +

rm -f "$DEB"
dpkg-deb --root-owner-group -Zxz --build "$R" "$DEB" >/dev/null
echo "build-deb: $(dpkg-deb -f "$DEB" Package) $(dpkg-deb -f "$DEB" Version) ($(du -k "$DEB" | cut -f1) KiB, $(dpkg-deb -c "$DEB" | grep -c '^-') files)"
echo "$DEB"
