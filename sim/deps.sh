#!/bin/sh
# Debian packages the ns-3 model and its reports need (ns-3 3.37 on bookworm;
# its pkg-config files name libgsl by path, hence libgsl-dev).
set -e
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
need=
for p in libns3-dev libgsl-dev gnuplot-nox python3 pkg-config g++ make; do
	dpkg -s "$p" >/dev/null 2>&1 || need="$need $p"
done
[ -z "$need" ] && { echo "deps.sh: all present"; exit 0; }
$SUDO apt-get update
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends $need
