package live

import (
	"errors"
	"fmt"
	"time"

	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
)

// ErrNoConfig is the error [Config] wraps when there is no kubeconfig to
// load and the process does not run in a pod.
var ErrNoConfig = errors.New("no kubeconfig")

// ConfigOptions say which kubeconfig and context [Config] loads, as
// kubectl's flags do. The zero ConfigOptions loads kubectl's default: the
// files of $KUBECONFIG (merged), else ~/.kube/config, at their current
// context, else the in-cluster configuration of a pod's service account.
type ConfigOptions struct {
	// Kubeconfig is a kubeconfig file (--kubeconfig); when set, it is
	// the only file read and $KUBECONFIG is ignored.
	Kubeconfig string
	// Context is the kubeconfig context to use (--context); "" is the
	// current context.
	Context string
	// Timeout bounds each request (kubectl's --request-timeout): dialing,
	// waiting for and reading one response. 0 is no limit.
	Timeout time.Duration
}

// Config loads the client configuration o names with kubectl's rules
// (client-go's clientcmd loading rules) and returns it with the
// namespace of its context ("default" when the context names none; the
// service account's namespace in a pod). A missing kubeconfig outside a
// pod is an error wrapping [ErrNoConfig]; an invalid one, or a context
// that does not exist, is clientcmd's error. Config reads files and the
// environment and nothing else: it does not contact the server.
func Config(o ConfigOptions) (*rest.Config, string, error) {
	rules := clientcmd.NewDefaultClientConfigLoadingRules()
	rules.ExplicitPath = o.Kubeconfig
	cc := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(rules, &clientcmd.ConfigOverrides{CurrentContext: o.Context})
	cfg, err := cc.ClientConfig()
	if err != nil {
		return nil, "", configError(err)
	}
	ns, _, err := cc.Namespace()
	if err != nil {
		return nil, "", configError(err)
	}
	cfg.Timeout = o.Timeout
	return cfg, ns, nil
}

// configError names what was looked for when there is no configuration.
func configError(err error) error {
	if clientcmd.IsEmptyConfig(err) {
		return fmt.Errorf("%w: none in $KUBECONFIG, %s or --kubeconfig, and not running in a pod", ErrNoConfig, clientcmd.RecommendedHomeFile) // clientcmd's message suggests KUBERNETES_MASTER, which nothing reads
	}
	return err
}
