#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install what building and testing fast_adaptive needs, from Debian's
# archive, only if something is missing (apt-get update runs first then).
set -eu
KVERS=${KVERS:-"6.1.0-57-amd64 6.12.117+deb12-amd64"}
pkgs="make gcc clang libclang-rt-14-dev sparse linux-source-6.1 xz-utils
      qemu-system-x86 busybox-static iproute2 ethtool iperf3 kmod cpio
      libns3-dev libgsl-dev gnuplot-nox pkg-config g++ dkms rsync valgrind
      dpkg-dev binutils"
for v in $KVERS; do
	pkgs="$pkgs linux-image-$v linux-headers-$v"
done
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
for v in $KVERS; do
	[ -d "/lib/modules/$v/build" ] || missing="$missing (headers $v)"
done
if [ -z "$missing" ]; then
	echo "deps: all installed"
	exit 0
fi
echo "deps: installing:$missing"
if [ "$(id -u)" != 0 ]; then
	echo "deps: need root to apt-get install:$missing" >&2
	exit 2
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $pkgs
for v in $KVERS; do
	if [ ! -d "/lib/modules/$v/build" ]; then
		echo "deps: kernel headers for $v not found after install" >&2
		exit 2
	fi
done
