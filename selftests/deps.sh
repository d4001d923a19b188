#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh [KVER...] - install what selftests/vmtest.sh needs on a Debian host
# (root): qemu, a static busybox, the tools the guest runs from the host's
# root file system, a compiler for the helpers, and the kernel images to boot
# (default: 6.1.0-57-amd64 and 6.12.117+deb12-amd64).  Installs only what is
# missing; says which package could not be installed.
set -eu

KVERS=${*:-"6.1.0-57-amd64 6.12.117+deb12-amd64"}
PKGS="qemu-system-x86 busybox-static iproute2 ethtool util-linux kmod coreutils
      mawk xz-utils gcc make libc6-dev linux-libc-dev"
for k in $KVERS; do
	PKGS="$PKGS linux-image-$k"
done

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
		missing="$missing $p"
	fi
done
if [ -z "$missing" ]; then
	echo "selftests/deps.sh: all present"
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	echo "selftests/deps.sh: missing:$missing (run as root to install)" >&2
	exit 1
fi
echo "selftests/deps.sh: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
if ! apt-get install -y -qq --no-install-recommends $missing >/tmp/fa-deps.log 2>&1; then
	tail -n 20 /tmp/fa-deps.log >&2
	for p in $missing; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			echo "selftests/deps.sh: could not install $p" >&2
	done
	exit 1
fi
echo "selftests/deps.sh: done"
