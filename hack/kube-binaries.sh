#!/usr/bin/env bash
# Builds kube-apiserver and etcd from the Go module proxy, with Karpenter's
# CRDs next to them, for the live tests of kube/internal/apiservertest, at
# the versions kube/internal/apiservertest/versions.env pins. Prints the
# folder on stdout (progress goes to stderr):
#
#   ${NODEPLAN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/nodeplan}/kube-v1.35.4-karpenter-v1.14.1-aws-v1.14.1/
#     kube-apiserver  etcd  crds/*.yaml  .complete
#
# The folder is named after every pinned version and is outside the clone;
# it is built once: a second run prints it at once. `--dir` prints the
# folder without building it. The stamp file (.complete, written last)
# lists the pinned versions and etcd's; a folder whose stamp does not list
# every pinned version is rebuilt. Concurrent runs wait on a lock (flock);
# the build happens in a temporary folder next to the final one, which is
# renamed into place only when it is whole.
#
# `go install …@version` cannot build either binary (k8s.io/kubernetes and
# etcd's modules carry replace directives), so each is built from a scratch
# module that requires it; for kube-apiserver the scratch module replaces
# the staging modules that k8s.io/kubernetes' go.mod lists at v0.0.0 with
# their published v0.x.y. A cold build takes several minutes on 2 cores.
#
# Needs bash (3.2 or later), Go, flock(1) (util-linux) and the Go module
# proxy (or a module cache that holds the modules).
set -euo pipefail
shopt -s inherit_errexit 2>/dev/null || true # bash 4.4+; every $( ) below is checked anyway

log() { echo "kube-binaries: $*" >&2; }
die() { log "$*"; exit 1; }

# pins: the name=version lines of versions.env, checked; each also sets
# the shell variable of its name.
versions=$(cd "$(dirname "$0")/.." && pwd)/kube/internal/apiservertest/versions.env
pins=
while IFS= read -r line || [ -n "$line" ]; do
  case $line in '' | '#'*) continue ;; esac
  printf '%s\n' "$line" | grep -Eqx '[a-z_]+=v[0-9A-Za-z.+-]+' ||
    die "$versions: line \"$line\" is not name=version"
  printf -v "${line%%=*}" %s "${line#*=}"
  pins+=$line$'\n'
done <"$versions"
for name in kube karpenter aws; do
  [ -n "${!name:-}" ] || die "$versions: no $name=version line"
done

# The folder's name joins every pin, in the file's order.
name=
while IFS='=' read -r key value; do name+=${name:+-}$key-$value; done <<<"${pins%$'\n'}"
cache=${NODEPLAN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/nodeplan}
dir=$cache/$name
stamp=.complete

if [ "${1:-}" = --dir ]; then
  echo "$dir"
  exit 0
fi
[ $# -eq 0 ] || die "usage: $0 [--dir]"

# complete succeeds when $dir's stamp lists every pin.
complete() {
  local pin
  [ -f "$dir/$stamp" ] || return 1
  while IFS= read -r pin; do
    grep -qxF -- "$pin" "$dir/$stamp" || return 1
  done <<<"${pins%$'\n'}"
}

if complete; then
  echo "$dir"
  exit 0
fi

command -v flock >/dev/null || die "needs flock(1) (util-linux) to build $dir"
mkdir -p "$cache"
exec 9>"$dir.lock"
if ! flock -n 9; then
  log "another run is building $dir; waiting for it"
  flock 9
fi
if complete; then
  echo "$dir"
  exit 0
fi

# Under the lock any temporary folder is a killed run's: remove it.
rm -rf "$dir.tmp."*
work=$(mktemp -d "$dir.tmp.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 1' HUP INT TERM
out=$work/out
mkdir -p "$out/crds"

# Every child runs without the lock's fd 9 (`9>&-`, and `exec` in a
# command substitution), so that a build left running by a killed run does
# not hold the lock.
export GOWORK=off GOFLAGS=-mod=mod CGO_ENABLED=0
start=$SECONDS

# field FIELD reads one string field of `go mod download -json` output.
field() { sed -n "s/^[[:space:]]*\"$1\": \"\(.*\)\",\{0,1\}\$/\1/p"; }

# download MODULE@VERSION FIELD sets REPLY to FIELD (Dir or GoMod) of the
# module's `go mod download -json` record. It exits with the go command's
# error when the download fails (the error is in the JSON, on stdout).
download() {
  local json err
  if ! json=$(exec go -C "$work" mod download -json "$1" 9>&-); then
    err=$(printf '%s\n' "$json" | field Error)
    die "go mod download $1 failed: ${err:-$json}"
  fi
  REPLY=$(printf '%s\n' "$json" | field "$2")
  [ -n "$REPLY" ] || die "go mod download -json $1 gave no $2: $json"
}

# pinned MODULE GOMOD prints the version GOMOD requires of MODULE.
pinned() {
  awk -v m="$1" '$1 == m && $2 ~ /^v/ { print $2; exit } $1 == "require" && $2 == m { print $3; exit }' "$2"
}

log "reading k8s.io/kubernetes@$kube's go.mod"
download "k8s.io/kubernetes@$kube" GoMod
kube_gomod=$REPLY
[ -f "$kube_gomod" ] || die "no go.mod for k8s.io/kubernetes@$kube at $kube_gomod"
staging=()
while IFS= read -r m; do staging+=("$m"); done < <(awk '$1 ~ /^k8s\.io\// && $2 == "v0.0.0" { print $1 }' "$kube_gomod" | sort -u)
[ "${#staging[@]}" -gt 0 ] || die "no staging modules (v0.0.0) in $kube_gomod"
minor=${kube#v1.}
minor=${minor%%.*}
staging_version=v0.${kube#v1.}
etcd_version=$(pinned go.etcd.io/etcd/server/v3 "$kube_gomod")
[ -n "$etcd_version" ] || die "$kube_gomod does not require go.etcd.io/etcd/server/v3"

ldflags="-s -w"
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  ldflags+=" -X $pkg.gitVersion=$kube -X $pkg.gitMajor=1 -X $pkg.gitMinor=$minor"
  ldflags+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=1970-01-01T00:00:00Z"
done

log "building kube-apiserver $kube (${#staging[@]} staging modules at $staging_version)"
mkdir "$work/apiserver"
{
  echo "module nodeplan.invalid/kube-apiserver"
  echo
  echo "go 1.25"
  echo
  echo "require k8s.io/kubernetes $kube"
  echo
  for m in "${staging[@]}"; do echo "replace $m => $m $staging_version"; done
} >"$work/apiserver/go.mod"
go -C "$work/apiserver" build -trimpath -ldflags "$ldflags" -o "$out/kube-apiserver" k8s.io/kubernetes/cmd/kube-apiserver 9>&-
log "kube-apiserver built ($((SECONDS - start)) s)"

log "building etcd $etcd_version"
mkdir "$work/etcd"
printf 'module nodeplan.invalid/etcd\n\ngo 1.25\n\nrequire go.etcd.io/etcd/server/v3 %s\n' "$etcd_version" >"$work/etcd/go.mod"
go -C "$work/etcd" build -trimpath -ldflags "-s -w" -o "$out/etcd" go.etcd.io/etcd/server/v3 9>&-
log "etcd built ($((SECONDS - start)) s)"

log "copying the CRDs of Karpenter $karpenter and its AWS provider $aws"
download "sigs.k8s.io/karpenter@$karpenter" Dir
karpenter_dir=$REPLY
download "github.com/aws/karpenter-provider-aws@$aws" Dir
aws_dir=$REPLY
for f in karpenter.sh_nodepools.yaml karpenter.sh_nodeclaims.yaml; do
  cp "$karpenter_dir/pkg/apis/crds/$f" "$out/crds/$f"
done
if [ -f "$karpenter_dir/pkg/apis/crds/karpenter.sh_nodeoverlays.yaml" ]; then
  cp "$karpenter_dir/pkg/apis/crds/karpenter.sh_nodeoverlays.yaml" "$out/crds/"
fi
cp "$aws_dir/pkg/apis/crds/karpenter.k8s.aws_ec2nodeclasses.yaml" "$out/crds/"
chmod u+w "$out/crds"/*.yaml

# Check the folder is whole before the stamp says so.
"$out/kube-apiserver" --version >&2 9>&-
"$out/etcd" --version >&2 9>&-
for f in karpenter.sh_nodepools.yaml karpenter.sh_nodeclaims.yaml karpenter.k8s.aws_ec2nodeclasses.yaml; do
  [ -s "$out/crds/$f" ] || die "missing CRD $f"
done
printf '%setcd=%s\n' "$pins" "$etcd_version" >"$out/$stamp"

rm -rf "$dir" # an incomplete folder, if any
mv "$out" "$dir"
log "done in $((SECONDS - start)) s: $dir"
echo "$dir"
