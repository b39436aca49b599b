#!/usr/bin/env bash
# refresh.sh: refreshes the schema data in this folder from its real sources.
#
#   - *.proto.gz: the generated.proto files of k8s.io/api and
#     k8s.io/apimachinery v0.37.2 (the messages of every kind fakeapi serves),
#     from the Go module cache (`go mod download` fetches them from the proxy);
#   - gofields.txt.gz: each protobuf field's JSON name and omission rule, read
#     from the Go types of the same modules by gofields.go;
#   - openapi-*.gz: the OpenAPI documents a real kube-apiserver v1.37.2 serves
#     (v3 for each group-version fakeapi serves, and v2 in JSON and protobuf,
#     cut down to those group-versions by openapicut.go).
#
# The OpenAPI part needs a running real server: from the repository's root,
# `kit/start.sh && source .kit/run/env` (docs/real-cluster.md), then
# `bash fakeapi/schema/refresh.sh`. Without KUBE_APISERVER_URL only the
# module files are refreshed. Everything here is Apache-2.0 (NOTICE.md).
set -euo pipefail
cd "$(dirname "$0")"
VERSION=v0.37.2
mods=$(cd /tmp && go mod download -json k8s.io/api@$VERSION k8s.io/apimachinery@$VERSION)
api=$(echo "$mods" | sed -n 's/.*"Dir": "\(.*k8s.io\/api@.*\)",/\1/p')
mach=$(echo "$mods" | sed -n 's/.*"Dir": "\(.*k8s.io\/apimachinery@.*\)",/\1/p')

# name=folder, for every package whose messages the served kinds use.
protos="core-v1=$api/core/v1 apps-v1=$api/apps/v1 meta-v1=$mach/pkg/apis/meta/v1
runtime=$mach/pkg/runtime runtime-schema=$mach/pkg/runtime/schema
resource=$mach/pkg/api/resource intstr=$mach/pkg/util/intstr"
for p in $protos; do
  gzip -9n < "${p#*=}/generated.proto" > "${p%%=*}.proto.gz"
done
go run gofields.go \
  "$api/core/v1=k8s.io.api.core.v1" "$api/apps/v1=k8s.io.api.apps.v1" \
  "$mach/pkg/apis/meta/v1=k8s.io.apimachinery.pkg.apis.meta.v1" \
  "$mach/pkg/runtime=k8s.io.apimachinery.pkg.runtime" | gzip -9n > gofields.txt.gz

if [ -z "${KUBE_APISERVER_URL:-}" ]; then
  echo "KUBE_APISERVER_URL is not set: OpenAPI documents left as they are" >&2
  exit 0
fi
get() { curl -sSf --cacert "$KUBE_CACERT" -H "Authorization: Bearer $KUBE_TOKEN" -H "Accept: $1" "$KUBE_APISERVER_URL$2"; }
for gv in api/v1 apis/apps/v1; do
  get application/json "/openapi/v3/$gv" | gzip -9n > "openapi-v3-$(echo "$gv" | tr / -).json.gz"
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
get application/json /openapi/v2 > "$tmp/openapi-v2.json"
get application/com.github.proto-openapi.spec.v2@v1.0+protobuf /openapi/v2 > "$tmp/openapi-v2.pb"
go run openapicut.go "$tmp/openapi-v2.json" "$tmp/openapi-v2.pb" openapi-v2.json.gz openapi-v2.pb.gz
