#!/usr/bin/env bash
# stop.sh stops exactly what kit/start.sh started: the processes whose ids
# it wrote in $KIT_DIR/run/*.pid, each only if it still runs the kit's own
# binary (never by name), kube-controller-manager and kube-apiserver before
# their etcd. The data and keys stay (KEEP_DATA=1 kit/start.sh reuses them);
# the env file goes, so that nothing sources the address of a stopped server.
set -uo pipefail
source "$(dirname "$0")/common.sh"
stop_one kube-controller-manager
stop_one kube-apiserver
stop_one etcd
rm -f "$RUN/env"
