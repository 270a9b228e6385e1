#!/usr/bin/env bash
# Builds kube-apiserver and etcd for Kubernetes v1.35.4 from the Go module
# proxy, with Karpenter's CRDs next to them, for the live tests of
# kube/internal/apiservertest. Prints the folder on stdout (progress goes to
# stderr):
#
#   ${NODEPLAN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/nodeplan}/kube-v1.35.4/
#     kube-apiserver  etcd  crds/*.yaml  .complete
#
# The folder is outside the clone and built once: a second run prints it at
# once. Concurrent runs wait on a lock; the build happens in a temporary
# folder next to the final one, which is renamed into place only when the
# stamp file (.complete, written last) says it is whole.
#
# `go install …@version` cannot build either binary (k8s.io/kubernetes and
# etcd's modules carry replace directives), so each is built from a scratch
# module that requires it; for kube-apiserver the scratch module replaces
# the staging modules that k8s.io/kubernetes' go.mod lists at v0.0.0 with
# their published v0.35.4. A cold build takes several minutes on 2 cores.
set -euo pipefail

kube_version=v1.35.4
staging_version=v0.35.4
karpenter_version=v1.14.1

cache=${NODEPLAN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/nodeplan}
dir=$cache/kube-$kube_version
stamp=.complete

if [ -f "$dir/$stamp" ]; then
  echo "$dir"
  exit 0
fi

log() { echo "kube-binaries: $*" >&2; }

mkdir -p "$cache"
exec 9>"$cache/kube-$kube_version.lock"
if ! flock -n 9; then
  log "another run is building $dir; waiting for it"
  flock 9
fi
if [ -f "$dir/$stamp" ]; then
  echo "$dir"
  exit 0
fi

# Under the lock any temporary folder is a killed run's: remove it.
rm -rf "$cache/kube-$kube_version.tmp."*
work=$(mktemp -d "$cache/kube-$kube_version.tmp.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 1' HUP INT TERM
out=$work/out
mkdir -p "$out/crds"

export GOWORK=off GOFLAGS=-mod=mod CGO_ENABLED=0
start=$SECONDS

# field FIELD reads one string field of `go mod download -json` output.
field() { sed -n "s/^[[:space:]]*\"$1\": \"\(.*\)\",\{0,1\}\$/\1/p"; }

# download MODULE@VERSION prints the module's folder in the module cache.
download() {
  local json
  json=$(cd "$work" && go mod download -json "$1")
  printf '%s\n' "$json" | field Dir
}

# pinned MODULE GOMOD prints the version GOMOD requires of MODULE.
pinned() {
  awk -v m="$1" '$1 == m && $2 ~ /^v/ { print $2; exit } $1 == "require" && $2 == m { print $3; exit }' "$2"
}

log "reading k8s.io/kubernetes@$kube_version's go.mod"
kube_gomod=$(cd "$work" && go mod download -json "k8s.io/kubernetes@$kube_version" | field GoMod)
[ -f "$kube_gomod" ] || { log "no go.mod for k8s.io/kubernetes@$kube_version"; exit 1; }
mapfile -t staging < <(awk '$1 ~ /^k8s\.io\// && $2 == "v0.0.0" { print $1 }' "$kube_gomod" | sort -u)
[ "${#staging[@]}" -gt 0 ] || { log "no staging modules (v0.0.0) in $kube_gomod"; exit 1; }
etcd_version=$(pinned go.etcd.io/etcd/server/v3 "$kube_gomod")
[ -n "$etcd_version" ] || { log "$kube_gomod does not require go.etcd.io/etcd/server/v3"; exit 1; }

ldflags="-s -w"
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  ldflags+=" -X $pkg.gitVersion=$kube_version -X $pkg.gitMajor=1 -X $pkg.gitMinor=35"
  ldflags+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=1970-01-01T00:00:00Z"
done

log "building kube-apiserver $kube_version (${#staging[@]} staging modules at $staging_version)"
mkdir "$work/apiserver"
{
  echo "module nodeplan.invalid/kube-apiserver"
  echo
  echo "go 1.25"
  echo
  echo "require k8s.io/kubernetes $kube_version"
  echo
  for m in "${staging[@]}"; do echo "replace $m => $m $staging_version"; done
} >"$work/apiserver/go.mod"
(cd "$work/apiserver" && go build -trimpath -ldflags "$ldflags" -o "$out/kube-apiserver" k8s.io/kubernetes/cmd/kube-apiserver)
log "kube-apiserver built ($((SECONDS - start)) s)"

log "building etcd $etcd_version"
mkdir "$work/etcd"
printf 'module nodeplan.invalid/etcd\n\ngo 1.25\n\nrequire go.etcd.io/etcd/server/v3 %s\n' "$etcd_version" >"$work/etcd/go.mod"
(cd "$work/etcd" && go build -trimpath -ldflags "-s -w" -o "$out/etcd" go.etcd.io/etcd/server/v3)
log "etcd built ($((SECONDS - start)) s)"

log "copying Karpenter $karpenter_version's CRDs"
karpenter=$(download "sigs.k8s.io/karpenter@$karpenter_version")
aws=$(download "github.com/aws/karpenter-provider-aws@$karpenter_version")
for f in karpenter.sh_nodepools.yaml karpenter.sh_nodeclaims.yaml; do
  cp "$karpenter/pkg/apis/crds/$f" "$out/crds/$f"
done
if [ -f "$karpenter/pkg/apis/crds/karpenter.sh_nodeoverlays.yaml" ]; then
  cp "$karpenter/pkg/apis/crds/karpenter.sh_nodeoverlays.yaml" "$out/crds/"
fi
cp "$aws/pkg/apis/crds/karpenter.k8s.aws_ec2nodeclasses.yaml" "$out/crds/"
chmod u+w "$out/crds"/*.yaml

# Check the folder is whole before the stamp says so.
"$out/kube-apiserver" --version >&2
"$out/etcd" --version >&2
for f in karpenter.sh_nodepools.yaml karpenter.sh_nodeclaims.yaml karpenter.k8s.aws_ec2nodeclasses.yaml; do
  [ -s "$out/crds/$f" ] || { log "missing CRD $f"; exit 1; }
done
printf 'kubernetes %s\netcd %s\nkarpenter %s\n' "$kube_version" "$etcd_version" "$karpenter_version" >"$out/$stamp"

rm -rf "$dir" # an incomplete folder from an older layout, if any
mv "$out" "$dir"
log "done in $((SECONDS - start)) s: $dir"
echo "$dir"
