//go:build unix

package apiservertest

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/rest"
)

// The users the API server knows, each by a static bearer token.
const (
	Admin  = "admin"  // in group system:masters: allowed everything
	Reader = "reader" // no groups: allowed nothing until a test binds it to a role
	Nobody = "nobody" // no groups: for tests of a forbidden request
)

// users lists each user's groups, as the token file gives them.
var users = map[string]string{Admin: "system:masters", Reader: "", Nobody: ""}

// How long the server may take to start, and to stop.
const (
	readyTimeout = 3 * time.Minute // cold start on a busy 2-core machine
	stopTimeout  = 10 * time.Second
)

// Server is a running kube-apiserver with its etcd, shared by the tests of
// one test binary. Its methods are safe for concurrent use.
type Server struct {
	url       string
	ca        []byte            // PEM of the serving certificate and its CA
	tokens    map[string]string // user -> bearer token
	dir       string            // temporary folder: data, certificates, logs
	etcd      *process
	apiserver *process
}

// URL returns the API server's address, https://127.0.0.1:port.
func (s *Server) URL() string { return s.url }

// Config returns a new client configuration for one of the users [Admin],
// [Reader] and [Nobody]; it panics for any other user. The client is not
// rate-limited in practice (1000 requests a second).
func (s *Server) Config(user string) *rest.Config {
	token, ok := s.tokens[user]
	if !ok {
		panic(fmt.Sprintf("apiservertest: unknown user %q (want %s, %s or %s)", user, Admin, Reader, Nobody))
	}
	return &rest.Config{
		Host:            s.url,
		BearerToken:     token,
		TLSClientConfig: rest.TLSClientConfig{CAData: slices.Clone(s.ca)},
		QPS:             1000,
		Burst:           1000,
	}
}

// startServer starts etcd and kube-apiserver from a, with their files in
// a new folder in parent, waits until the API server is ready and installs
// the CRDs of a's crds folder. A port taken between choosing it and
// binding it is retried with new ports, in a new folder.
func startServer(a assets, parent string) (*Server, error) {
	var err error
	for range 3 {
		var s *Server
		if s, err = startOnce(a, parent); err == nil {
			return s, nil
		}
		if !errors.Is(err, errPortTaken) {
			return nil, err
		}
	}
	return nil, err
}

// errPortTaken reports that a process could not bind its port.
var errPortTaken = errors.New("apiservertest: port already in use")

func startOnce(a assets, parent string) (s *Server, err error) {
	dir, err := os.MkdirTemp(parent, "server-")
	if err != nil {
		return nil, err
	}
	s = &Server{dir: dir}
	defer func() {
		if err != nil {
			err = s.failed(err)
		}
	}()
	ports, err := freePorts(2)
	if err != nil {
		return s, err
	}
	etcdURL := fmt.Sprintf("http://127.0.0.1:%d", ports[0])
	s.url = fmt.Sprintf("https://127.0.0.1:%d", ports[1])
	if s.etcd, err = startProcess("etcd", a.etcd(), etcdArgs(dir, etcdURL), filepath.Join(dir, "etcd.log")); err != nil {
		return s, err
	}
	args, err := s.apiserverArgs(etcdURL, ports[1])
	if err != nil {
		return s, err
	}
	if s.apiserver, err = startProcess("kube-apiserver", a.apiserver(), args, filepath.Join(dir, "kube-apiserver.log")); err != nil {
		return s, err
	}
	if err = s.waitReady(); err != nil {
		return s, err
	}
	if s.ca, err = os.ReadFile(filepath.Join(dir, "certs", "apiserver.crt")); err != nil {
		return s, err
	}
	return s, installCRDs(s.Config(Admin), a.crds())
}

// failed stops what startOnce started and returns err with the tail of
// each started process's log, wrapping errPortTaken when a log says a
// port was taken.
func (s *Server) failed(err error) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%v", err)
	portTaken := false
	for _, p := range []*process{s.apiserver, s.etcd} {
		if p == nil {
			continue
		}
		tail := p.logTail(30)
		portTaken = portTaken || strings.Contains(tail, "address already in use")
		fmt.Fprintf(&b, "\n--- last lines of %s (%s):\n%s", p.name, p.log, tail)
	}
	if stopErr := s.stop(); stopErr != nil {
		fmt.Fprintf(&b, "\n%v", stopErr)
	}
	if portTaken {
		return fmt.Errorf("%w: %s", errPortTaken, b.String())
	}
	return errors.New(b.String())
}

// stop kills kube-apiserver and etcd and removes their folder.
func (s *Server) stop() error {
	var errs []error
	for _, p := range []*process{s.apiserver, s.etcd} {
		if p != nil {
			errs = append(errs, p.stop(stopTimeout))
		}
	}
	errs = append(errs, os.RemoveAll(s.dir))
	return errors.Join(errs...)
}

// freePorts returns n distinct loopback ports that were free a moment ago.
func freePorts(n int) ([]int, error) {
	ports := make([]int, 0, n)
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		defer l.Close() // held until all n are chosen, so they differ
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

func etcdArgs(dir, clientURL string) []string {
	return []string{
		"--name=default",
		"--data-dir=" + filepath.Join(dir, "etcd"),
		"--listen-client-urls=" + clientURL,
		"--advertise-client-urls=" + clientURL,
		"--listen-peer-urls=http://127.0.0.1:0",
		"--unsafe-no-fsync=true",
		"--log-level=warn",
	}
}

// apiserverArgs writes the token file and the service-account key into
// the temporary folder and returns kube-apiserver's flags.
func (s *Server) apiserverArgs(etcdURL string, port int) ([]string, error) {
	tokens, err := s.writeTokens()
	if err != nil {
		return nil, err
	}
	key, err := writeKey(filepath.Join(s.dir, "service-account.key"))
	if err != nil {
		return nil, err
	}
	return []string{
		"--etcd-servers=" + etcdURL,
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		fmt.Sprintf("--secure-port=%d", port),
		"--cert-dir=" + filepath.Join(s.dir, "certs"),
		"--service-cluster-ip-range=10.0.0.0/24",
		"--authorization-mode=RBAC",
		"--token-auth-file=" + tokens,
		// Without a controller-manager no service-account token is ever
		// created, and the ServiceAccount plugin would reject every pod.
		"--disable-admission-plugins=ServiceAccount",
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file=" + key,
		"--service-account-signing-key-file=" + key,
		"--allow-privileged=true",
		"--endpoint-reconciler-type=none",
		"--profiling=false",
	}, nil
}

// writeTokens gives each user a random token and writes the token file,
// returning its path.
func (s *Server) writeTokens() (string, error) {
	s.tokens = make(map[string]string, len(users))
	var b strings.Builder
	for _, user := range []string{Admin, Reader, Nobody} {
		token := rand.Text()
		s.tokens[user] = token
		fmt.Fprintf(&b, "%s,%s,%s", token, user, user)
		if groups := users[user]; groups != "" {
			fmt.Fprintf(&b, ",%q", groups)
		}
		b.WriteByte('\n')
	}
	path := filepath.Join(s.dir, "tokens.csv")
	return path, os.WriteFile(path, []byte(b.String()), 0o600)
}

// writeKey writes a new RSA private key, which kube-apiserver reads both
// to sign service-account tokens and to verify them.
func writeKey(path string) (string, error) {
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return "", err
	}
	block := &pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}
	return path, os.WriteFile(path, pem.EncodeToMemory(block), 0o600)
}

// state is what Main found, for Require.
var state struct {
	main   bool    // Main has run
	server *Server // the running server, if any
	skip   string  // why live tests skip, when there is no server
}

// Main is a test binary's TestMain body: it starts the API server, runs
// the tests and stops the server, returning the exit code for os.Exit.
// See the package documentation for where it finds the binaries, what it
// does without them, and how it cleans up.
func Main(m *testing.M) int {
	state.main = true
	removed, err := sweep(os.TempDir())
	for _, dir := range removed {
		fmt.Fprintf(os.Stderr, "apiservertest: removed %s: its test binary is gone\n", dir)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "apiservertest: removing the folders of gone test binaries: %v\n", err)
	}
	a, err := findAssets()
	if errors.Is(err, errNoAssets) && os.Getenv("CI") != "true" {
		state.skip = fmt.Sprintf("%v\nLive API server tests skip. To run them, run the tests with "+
			"`bash hack/test.sh` from the repository root, or build the binaries once with "+
			"`bash hack/kube-binaries.sh` (several minutes) and run the tests again.", err)
		fmt.Fprintln(os.Stderr, state.skip)
		return m.Run()
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "%v\nBuild them with `bash hack/kube-binaries.sh` (the live tests never skip under CI=true).\n", err)
		return 1
	}
	dir, err := makeTempDir(os.TempDir())
	if err != nil {
		fmt.Fprintf(os.Stderr, "apiservertest: %v\n", err)
		return 1
	}
	c := &cleanup{dir: dir}
	defer onSignal(c)()
	code := 1
	if s, err := startServer(a, dir); err != nil {
		fmt.Fprintln(os.Stderr, err)
	} else {
		state.server = s
		code = m.Run()
		state.server = nil
	}
	if err := c.run(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		code = max(code, 1)
	}
	return code
}

// Require returns the running server, or skips the test (t.Skip) with a
// message saying how to get the binaries when Main found none. It fails
// the test when the package's TestMain is not [Main].
func Require(t testing.TB) *Server {
	t.Helper()
	switch {
	case state.server != nil:
		return state.server
	case state.main:
		t.Skip(state.skip)
	default:
		t.Fatal("apiservertest: Require needs `func TestMain(m *testing.M) { os.Exit(apiservertest.Main(m)) }` in the test package")
	}
	return nil
}
