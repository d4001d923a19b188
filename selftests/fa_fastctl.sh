#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# fastctl against real fast_adaptive sockets (the test lives with the tool).
exec "$(dirname "$0")/../tools/fastctl/vmtest-fastctl.sh" "$@"
