#!/usr/bin/env bash
# The README's test command: every test of every module, including the
# kube module's live tests against a real kube-apiserver and etcd, which
# hack/kube-binaries.sh builds on the first run (several minutes, cached
# outside the clone). Arguments go to `go test` (-run, -count, -v, ...).
set -euo pipefail
cd "$(dirname "$0")/.."
NODEPLAN_KUBE_ASSETS=$(bash hack/kube-binaries.sh)
export NODEPLAN_KUBE_ASSETS
go test ./... ./kube/... ./benchmarks/karpenter/... "$@"
