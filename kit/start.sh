#!/usr/bin/env bash
# start.sh starts a real etcd and kube-apiserver on 127.0.0.1 (with KCM=1
# also kube-controller-manager), waits until the API server is ready, and
# writes $KIT_DIR/run/env, so that
#
#   kit/start.sh && source .kit/run/env
#
# exports KUBE_APISERVER_URL, KUBE_TOKEN, KUBE_CACERT, KUBECONFIG and
# ETCD_URL (and KCM_LOG with KCM=1): what the opt-in real-server tests,
# the examples' -server flags and kubectl read. kit/stop.sh stops exactly
# what it started. It needs kit/build.sh's binaries, openssl and curl.
#
# Settings (environment):
#   KCM=1              also start kube-controller-manager, running only
#   KCM_CONTROLLERS    its controllers (default replicaset,garbagecollector;
#                      garbagecollector alone leaves the ReplicaSets to yours)
#   KEEP_DATA=1        keep etcd's data and the ports of the last run (so
#                      `kit/stop.sh && KEEP_DATA=1 kit/start.sh` restarts
#                      the servers at the same address, every object kept);
#                      by default each start begins with an empty etcd
#   APISERVER_PORT, ETCD_PORT   preferred ports (default 26443, 23790; the
#                      next free one is taken)
#   EXTRA_APISERVER_FLAGS       added to kube-apiserver's command line
#
# The server: a token file (one user, system:masters), AlwaysAllow, TLS
# with a CA made here, no ServiceAccount admission (nothing creates the
# "default" service account), no endpoint reconciler (it refuses a loopback
# address). There is no kubelet or scheduler: pods stay Pending, which is
# all a List/Watch client needs. Without KCM=1, a deleted namespace stays
# Terminating and no garbage collector follows ownerReferences.
set -euo pipefail
source "$(dirname "$0")/common.sh"
KEEP_DATA=${KEEP_DATA:-0}

for b in etcd kube-apiserver; do
  [[ -x $BIN/$b ]] || { echo "start.sh: no $BIN/$b: run kit/build.sh first" >&2; exit 1; }
done
if [[ ${KCM:-0} == 1 && ! -x $BIN/kube-controller-manager ]]; then
  echo "start.sh: no $BIN/kube-controller-manager: run kit/build.sh (without NO_KCM)" >&2; exit 1
fi
for c in openssl curl; do
  command -v "$c" >/dev/null || { echo "start.sh: needs $c" >&2; exit 1; }
done
for name in etcd kube-apiserver kube-controller-manager; do
  if alive "$name"; then
    echo "start.sh: $name is already running (pid $(cat "$RUN/$name.pid")): kit/stop.sh first" >&2; exit 1
  fi
done
mkdir -p "$RUN" "$PKI"
fail() { echo "start.sh: $*" >&2; "$KIT_ROOT/kit/stop.sh" >&2 || true; exit 1; }

# Ports: with KEEP_DATA=1 the last run's, so that a client's URL stays true
# across a restart; otherwise the first free one from the preferred.
free_port() { local p=$1; while port_busy "$p"; do p=$((p + 1)); done; echo "$p"; }
if [[ $KEEP_DATA == 1 && -f $RUN/ports ]]; then
  source "$RUN/ports"
  for p in "$ETCD_PORT" "$ETCD_PEER_PORT" "$APISERVER_PORT"; do
    port_busy "$p" && fail "KEEP_DATA=1 wants port $p again, and it is taken"
  done
else
  ETCD_PORT=$(free_port "${ETCD_PORT:-23790}")
  ETCD_PEER_PORT=$(free_port $((ETCD_PORT + 1)))
  APISERVER_PORT=$(free_port "${APISERVER_PORT:-26443}")
fi
printf 'ETCD_PORT=%s\nETCD_PEER_PORT=%s\nAPISERVER_PORT=%s\n' \
  "$ETCD_PORT" "$ETCD_PEER_PORT" "$APISERVER_PORT" > "$RUN/ports"
ETCD_URL=http://127.0.0.1:$ETCD_PORT
KUBE_APISERVER_URL=https://127.0.0.1:$APISERVER_PORT

# Keys, made once and kept: a CA, the API server's certificate (for
# 127.0.0.1 and the in-cluster names), the service-account key pair, and a
# random bearer token.
if [[ ! -f $PKI/apiserver.crt ]]; then
  say "making a CA, a serving certificate and service-account keys in $PKI"
  (
    cd "$PKI"
    openssl req -x509 -newkey rsa:2048 -nodes -days 3650 -subj /CN=kit-ca \
      -keyout ca.key -out ca.crt
    openssl req -newkey rsa:2048 -nodes -subj /CN=kube-apiserver \
      -keyout apiserver.key -out apiserver.csr
    printf '%s\n' 'subjectAltName=IP:127.0.0.1,IP:10.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local' \
      'extendedKeyUsage=serverAuth' 'keyUsage=digitalSignature,keyEncipherment' > apiserver.ext
    openssl x509 -req -in apiserver.csr -CA ca.crt -CAkey ca.key -CAcreateserial \
      -days 3650 -extfile apiserver.ext -out apiserver.crt
    openssl genrsa -out sa.key 2048
    openssl rsa -in sa.key -pubout -out sa.pub
  ) 2>/dev/null || fail "openssl could not make the keys"
fi
[[ -f $PKI/token ]] || openssl rand -hex 24 > "$PKI/token"
KUBE_TOKEN=$(cat "$PKI/token")
printf '%s,admin,admin-uid,"system:masters"\n' "$KUBE_TOKEN" > "$PKI/tokens.csv"
chmod 600 "$PKI"/*.key "$PKI/token" "$PKI/tokens.csv"

# etcd. setsid: a Ctrl-C in the terminal that ran start.sh does not reach
# it; only stop.sh ends it.
[[ $KEEP_DATA == 1 ]] || rm -rf "$RUN/etcd-data"
mkdir -p "$RUN/etcd-data"
chmod 700 "$RUN/etcd-data"
setsid "$BIN/etcd" --name kit --data-dir "$RUN/etcd-data" \
  --listen-client-urls "$ETCD_URL" --advertise-client-urls "$ETCD_URL" \
  --listen-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" \
  --initial-advertise-peer-urls "http://127.0.0.1:$ETCD_PEER_PORT" \
  --initial-cluster "kit=http://127.0.0.1:$ETCD_PEER_PORT" \
  > "$RUN/etcd.log" 2>&1 < /dev/null &
echo $! > "$RUN/etcd.pid"
say "etcd pid $(cat "$RUN/etcd.pid") on $ETCD_URL"
for i in $(seq 1 60); do
  curl -fsS "$ETCD_URL/health" 2>/dev/null | grep -q '"health":"true"' && break
  alive etcd || { tail -20 "$RUN/etcd.log" >&2; fail "etcd ended (log: $RUN/etcd.log)"; }
  [[ $i == 60 ]] && fail "etcd not healthy after 30 s (log: $RUN/etcd.log)"
  sleep 0.5
done

# kube-apiserver (a fresh log each start). --endpoint-reconciler-type none: the reconciler refuses a
# loopback address (so the "kubernetes" Service has no endpoints);
# ServiceAccount admission off: nothing creates the "default" service
# account, and every pod create would fail without it.
# shellcheck disable=SC2086 # EXTRA_APISERVER_FLAGS is split on purpose
setsid "$BIN/kube-apiserver" \
  --etcd-servers "$ETCD_URL" \
  --bind-address 127.0.0.1 --advertise-address 127.0.0.1 --secure-port "$APISERVER_PORT" \
  --endpoint-reconciler-type none \
  --tls-cert-file "$PKI/apiserver.crt" --tls-private-key-file "$PKI/apiserver.key" \
  --cert-dir "$RUN/apiserver-certs" \
  --token-auth-file "$PKI/tokens.csv" --anonymous-auth=false \
  --authorization-mode AlwaysAllow \
  --service-account-issuer https://kubernetes.default.svc.cluster.local \
  --service-account-key-file "$PKI/sa.pub" \
  --service-account-signing-key-file "$PKI/sa.key" \
  --service-cluster-ip-range 10.0.0.0/24 \
  --disable-admission-plugins ServiceAccount \
  --profiling=false --v 1 \
  ${EXTRA_APISERVER_FLAGS:-} \
  > "$RUN/kube-apiserver.log" 2>&1 < /dev/null &
echo $! > "$RUN/kube-apiserver.pid"
say "kube-apiserver pid $(cat "$RUN/kube-apiserver.pid") on $KUBE_APISERVER_URL"
start=$SECONDS
until [[ $(curl -sS --cacert "$PKI/ca.crt" -H "Authorization: Bearer $KUBE_TOKEN" \
  "$KUBE_APISERVER_URL/readyz" 2>/dev/null) == ok ]]; do
  if ! alive kube-apiserver; then
    tail -30 "$RUN/kube-apiserver.log" >&2
    fail "kube-apiserver ended (log: $RUN/kube-apiserver.log)"
  fi
  if ((SECONDS - start > 180)); then
    curl -sS --cacert "$PKI/ca.crt" -H "Authorization: Bearer $KUBE_TOKEN" \
      "$KUBE_APISERVER_URL/readyz?verbose" | grep -v ' ok$' >&2 || true
    fail "kube-apiserver not ready after 3 minutes (log: $RUN/kube-apiserver.log)"
  fi
  sleep 0.5
done
say "kube-apiserver ready after $((SECONDS - start)) s"

cat > "$RUN/kubeconfig" <<KC
apiVersion: v1
kind: Config
clusters:
- name: kit
  cluster:
    server: $KUBE_APISERVER_URL
    certificate-authority: $PKI/ca.crt
users:
- name: admin
  user:
    token: $KUBE_TOKEN
contexts:
- name: kit
  context: {cluster: kit, user: admin, namespace: default}
current-context: kit
KC
chmod 600 "$RUN/kubeconfig"

# kube-controller-manager, with only the controllers asked for; no port of
# its own, no leader election, the admin's credentials.
if [[ ${KCM:-0} == 1 ]]; then
  controllers=${KCM_CONTROLLERS:-replicaset,garbagecollector}
  setsid "$BIN/kube-controller-manager" --kubeconfig "$RUN/kubeconfig" \
    --controllers "$controllers" --leader-elect=false --secure-port=0 \
    --use-service-account-credentials=false --v 1 \
    > "$RUN/kube-controller-manager.log" 2>&1 < /dev/null &
  echo $! > "$RUN/kube-controller-manager.pid"
  say "kube-controller-manager pid $(cat "$RUN/kube-controller-manager.pid") (controllers $controllers)"
  # Ready once its controllers' informers have synced (up to a minute).
  start=$SECONDS
  until grep -q 'Caches are synced' "$RUN/kube-controller-manager.log"; do
    alive kube-controller-manager ||
      { tail -20 "$RUN/kube-controller-manager.log" >&2; fail "kube-controller-manager ended"; }
    ((SECONDS - start < 60)) ||
      fail "kube-controller-manager not synced after a minute (log: $RUN/kube-controller-manager.log)"
    sleep 0.5
  done
  say "kube-controller-manager ready after $((SECONDS - start)) s"
fi

{
  echo "# written by kit/start.sh at $(date -u +%Y-%m-%dT%H:%M:%SZ): source it; kit/stop.sh stops the servers"
  for v in KUBE_APISERVER_URL KUBE_TOKEN ETCD_URL; do printf 'export %s=%q\n' "$v" "${!v}"; done
  printf 'export KUBE_CACERT=%q\nexport KUBECONFIG=%q\n' "$PKI/ca.crt" "$RUN/kubeconfig"
  [[ ${KCM:-0} != 1 ]] || printf 'export KCM_LOG=%q\n' "$RUN/kube-controller-manager.log"
} > "$RUN/env"
say "ready: source $RUN/env"
