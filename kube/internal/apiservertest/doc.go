// Package apiservertest runs a real kube-apiserver and etcd for the kube
// module's live tests, with Karpenter's CRDs installed.
//
// A test package that talks to the API server makes [Main] its TestMain:
//
//	func TestMain(m *testing.M) { os.Exit(apiservertest.Main(m)) }
//
// and each live test starts with
//
//	srv := apiservertest.Require(t)
//	client, err := dynamic.NewForConfig(srv.Config(apiservertest.Admin))
//
// Main starts one etcd and one kube-apiserver per test binary, on free
// loopback ports with a temporary data folder, before any test runs, and
// stops them after the last one; tests share the server, so each test
// works in objects (and namespaces) named for it. No controller-manager,
// scheduler or kubelet runs: tests write every object and status
// themselves, and pods are admitted without the ServiceAccount plugin.
// Authorization is RBAC; the users are [Admin] (group system:masters),
// [Reader] and [Nobody] (no groups, so no rights until a test binds them).
//
// # Binaries
//
// The binaries come from the folder that hack/kube-binaries.sh builds
// (kube-apiserver and etcd of Kubernetes, and the CRDs of Karpenter and
// its AWS provider in crds/, at the versions versions.env pins, the one
// place they are written): the folder named by $NODEPLAN_KUBE_ASSETS,
// else the script's default folder,
// ${NODEPLAN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/nodeplan}/kube-v1.35.4-karpenter-v1.14.1-aws-v1.14.1
// (named after every pin), when the script has completed it: its stamp
// file lists every pin of versions.env. The README's test command,
// bash hack/test.sh, builds it on its first run and sets the variable.
// The CRDs of Karpenter's module that crds/ lacks (autoscaling.x-k8s.io's
// CapacityBuffer, which the folder predates) are installed too, from the
// module cache, where the kube module's go.mod puts the pinned version
// (found with go list -m): the folder is not rebuilt, and a module that
// cannot be found keeps the server from starting, so the live tests fail
// rather than run without the CRD.
//
// Without the binaries, Main prints how to get them and runs the tests,
// and [Require] skips each live test with that message, unless CI=true:
// then Main fails before running any test. A $NODEPLAN_KUBE_ASSETS that
// names an incomplete folder or one built for other versions, or a server
// that does not start, fails always, with the tail of the server's log.
//
// # Cleaning up
//
// Each test binary keeps the server's files (etcd's data, certificates,
// tokens, logs: about 120 MB) in a folder nodeplan-apiserver-* of
// os.TempDir() holding its process id in owner.pid. Main removes it when
// the tests end, and when the test binary gets SIGINT (Ctrl-C), SIGTERM
// or SIGHUP. A test binary killed otherwise (SIGKILL, or a panic such as
// go test's -timeout) leaves it; the next Main, of any package, removes
// every such folder whose owner process no longer exists, and keeps those
// of test binaries still running (go test runs packages in parallel).
//
// Each process runs in its own process group and receives SIGKILL when
// the test binary dies (Linux's parent-death signal), so a killed test
// leaves nothing running; elsewhere on Unix a killed test may leave them
// running. The package builds on Unix only.
package apiservertest
