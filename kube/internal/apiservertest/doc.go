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
// (kube-apiserver and etcd of Kubernetes v1.35.4, and Karpenter v1.14.1's
// CRDs in crds/): the folder named by $NODEPLAN_KUBE_ASSETS, else the
// script's default folder,
// ${NODEPLAN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/nodeplan}/kube-v1.35.4,
// when the script has completed it. The README's test command,
// bash hack/test.sh, builds it on its first run and sets the variable.
//
// Without the binaries, Main prints how to get them and runs the tests,
// and [Require] skips each live test with that message, unless CI=true:
// then Main fails before running any test. A $NODEPLAN_KUBE_ASSETS that
// names an incomplete folder, or a server that does not start, fails
// always, with the tail of the server's log.
//
// Each process runs in its own process group and receives SIGKILL when
// the test binary dies (Linux's parent-death signal), so a killed test
// leaves nothing running; elsewhere on Unix a killed test may leave them
// running. The package builds on Unix only.
package apiservertest
