#!/usr/bin/env bash
# build.sh builds the real control plane the project is checked against,
# from the Go modules of its sources (only the Go module proxy is needed):
# etcd v3.7.3, kube-apiserver and kube-controller-manager v1.37.2, into
# $KIT_DIR/bin (default: .kit/bin at the repository's root).
#
#   kit/build.sh              build what is missing (a binary already there
#                             at the right version is kept)
#   NO_KCM=1 kit/build.sh     skip kube-controller-manager
#   FORCE=1 kit/build.sh      build all again
#
# A cold build takes about 15-40 minutes on 2 cores, and a few GB of Go's
# module and build caches; run it in the background:
#   kit/build.sh > build.log 2>&1 &
# The way envtest's setup-envtest gives a test a real control plane, except
# that it builds instead of downloading. docs/real-cluster.md says more.
set -euo pipefail
source "$(dirname "$0")/common.sh"

FORCE=${FORCE:-0}
SRC=$KIT_DIR/src
export GOFLAGS="${GOFLAGS:-} -mod=mod"
mkdir -p "$BIN" "$SRC"

# built NAME WANT: $BIN/NAME exists and its --version names WANT.
built() {
  local v
  [[ $FORCE != 1 && -x $BIN/$1 ]] && v=$("$BIN/$1" --version 2>/dev/null) && grep -q -- "$2" <<< "$v"
}

build_etcd() {
  if built etcd "etcd Version: ${ETCD_VERSION#v}"; then
    say "etcd $ETCD_VERSION already built"; return
  fi
  # An empty module that requires etcd's server, so that go build resolves
  # it with the versions etcd's own go.mod pins.
  local d=$SRC/etcd-$ETCD_VERSION
  mkdir -p "$d"
  [[ -f $d/go.mod ]] || printf 'module kit/etcd\n\ngo 1.26.0\n' > "$d/go.mod"
  say "resolving go.etcd.io/etcd/server/v3@$ETCD_VERSION"
  (cd "$d" && go get "go.etcd.io/etcd/server/v3@$ETCD_VERSION")
  say "building etcd"
  (cd "$d" && go build -trimpath -ldflags='-s -w' -o "$BIN/etcd.new" go.etcd.io/etcd/server/v3)
  mv "$BIN/etcd.new" "$BIN/etcd"
  say "built $("$BIN/etcd" --version | head -1)"
}

# k8s_module writes a module that requires k8s.io/kubernetes. Kubernetes'
# own go.mod requires its staging modules (k8s.io/api, k8s.io/client-go, ...)
# at v0.0.0 and replaces them with ./staging/...; a module outside the
# repository must replace each with its published version, v0.37.2 for
# v1.37.2.
k8s_module() {
  local d=$SRC/kubernetes-$K8S_VERSION kdir staging godir
  mkdir -p "$d"
  [[ -f $d/go.mod && -f $d/.complete ]] && { echo "$d"; return; }
  say "downloading k8s.io/kubernetes@$K8S_VERSION" >&2
  kdir=$(cd "$d" && go mod download -json "k8s.io/kubernetes@$K8S_VERSION" |
    sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  [[ -n $kdir && -f $kdir/go.mod ]] || { echo "build.sh: cannot download k8s.io/kubernetes@$K8S_VERSION" >&2; exit 1; }
  staging=$(awk '$2 == "=>" && $3 ~ /^\.\/staging\// {print $1}' "$kdir/go.mod")
  godir=$(awk '$1 == "go" {print $2; exit}' "$kdir/go.mod")
  {
    printf 'module kit/kubernetes\n\ngo %s\n\n' "$godir"
    grep '^godebug ' "$kdir/go.mod" || true
    printf 'require k8s.io/kubernetes %s\n\nreplace (\n' "$K8S_VERSION"
    for m in $staging; do printf '\t%s => %s v0.%s\n' "$m" "$m" "${K8S_VERSION#v1.}"; done
    printf ')\n'
  } > "$d/go.mod"
  (cd "$d" && go get "k8s.io/kubernetes/cmd/kube-apiserver@$K8S_VERSION" \
    "k8s.io/kubernetes/cmd/kube-controller-manager@$K8S_VERSION") >&2
  touch "$d/.complete"
  echo "$d"
}

# build_k8s NAME: builds k8s.io/kubernetes/cmd/NAME, with the version
# stamped as Kubernetes' own build does (so --version and /version say
# v1.37.2).
build_k8s() {
  local name=$1 d minor ld
  if built "$name" "Kubernetes $K8S_VERSION\$"; then
    say "$name $K8S_VERSION already built"; return
  fi
  d=$(k8s_module)
  minor=${K8S_VERSION#v1.}; minor=${minor%%.*}
  ld="-s -w"
  for p in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    ld+=" -X $p.gitVersion=$K8S_VERSION -X $p.gitMajor=1 -X $p.gitMinor=$minor -X $p.gitTreeState=clean"
  done
  say "building $name (minutes: kube-apiserver and kube-controller-manager are large)"
  (cd "$d" && go build -trimpath -ldflags="$ld" -o "$BIN/$name.new" "k8s.io/kubernetes/cmd/$name")
  mv "$BIN/$name.new" "$BIN/$name"
  say "built $name: $("$BIN/$name" --version)"
}

start=$SECONDS
build_etcd
build_k8s kube-apiserver
[[ ${NO_KCM:-0} == 1 ]] || build_k8s kube-controller-manager
say "done in $((SECONDS - start)) s; in $BIN:"
ls -l "$BIN"
