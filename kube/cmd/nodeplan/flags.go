package main

import (
	"flag"
	"fmt"
	"strings"
)

// helpRequested is parseFlags' answer to -h or --help: the subcommand's
// usage, to print on stdout with exit status 0.
type helpRequested struct{ usage string }

func (h *helpRequested) Error() string { return "help requested" }
func (h *helpRequested) Unwrap() error { return flag.ErrHelp }

// inputFlags registers the flags that name the manifests.
func inputFlags(fs *flag.FlagSet, c *config) {
	fs.Var(&c.files, "f", "manifest `PATH`: a YAML or JSON file, a directory of them, or - for stdin; repeatable")
	fs.Var(&c.files, "filename", "same as -f (kubectl's long form)")
	fs.BoolVar(&c.recursive, "R", false, "with -f DIR, also read its subdirectories (as kubectl -R)")
	fs.BoolVar(&c.recursive, "recursive", false, "same as -R")
}

// clusterFlagNames are the flags clusterFlags registers, which -f excludes.
var clusterFlagNames = []string{"kubeconfig", "context", "n", "namespace", "A", "all-namespaces", "request-timeout"}

// clusterFlags registers the flags that name the cluster to read, as
// kubectl's; namespaces says whether -n and -A are among them (not for
// nodeplan shadow, which watches every namespace, as Karpenter does).
func clusterFlags(fs *flag.FlagSet, c *clusterConfig, namespaces bool) {
	fs.StringVar(&c.kubeconfig, "kubeconfig", "", "without -f, read the cluster of this kubeconfig `PATH` (default $KUBECONFIG, else ~/.kube/config, else the pod's service account)")
	fs.StringVar(&c.context, "context", "", "the kubeconfig context to read (default the current context)")
	fs.DurationVar(&c.timeout, "request-timeout", defaultRequestTimeout, "the longest one request to the API server may take; 0 for no limit")
	if !namespaces {
		return
	}
	fs.StringVar(&c.namespace, "n", "", "plan the pending pods and workloads of this `NAMESPACE` only; bound pods, nodes and daemonsets are still read in every namespace (default every namespace, not the context's)")
	fs.StringVar(&c.namespace, "namespace", "", "same as -n")
	fs.BoolVar(&c.allNamespaces, "A", false, "plan the pending pods of every namespace (the default)")
	fs.BoolVar(&c.allNamespaces, "all-namespaces", false, "same as -A")
}

// interspersed lets flags follow file names, as kubectl's do (Go's flag
// package stops at the first argument that is not a flag): it rewrites
// each argument that is neither a flag nor the value of the flag before it
// into "-f ARG", in place, so that file arguments and -f are read in the
// order given. A flag's value is the next argument unless the flag is a
// bool flag (-R, --no-headers) or is written -flag=value; after "--"
// every argument is a file. A flag fs does not define, and a flag missing
// its value at the end, are left for fs.Parse to report.
func interspersed(fs *flag.FlagSet, args []string) []string {
	out := make([]string, 0, 2*len(args))
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "--":
			for _, f := range args[i+1:] {
				out = append(out, "-f", f)
			}
			return out
		case len(a) < 2 || a[0] != '-': // a file name, or "-" for stdin
			out = append(out, "-f", a)
		case takesValue(fs, a) && i+1 < len(args):
			out = append(out, a, args[i+1])
			i++
		default:
			out = append(out, a)
		}
	}
	return out
}

// takesValue reports whether the flag arg (-name or --name, without
// =value) is one of fs that takes a value from the next argument.
func takesValue(fs *flag.FlagSet, arg string) bool {
	name := strings.TrimPrefix(strings.TrimPrefix(arg, "-"), "-")
	f := fs.Lookup(name)
	if f == nil || strings.Contains(name, "=") {
		return false
	}
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return !ok || !b.IsBoolFlag()
}

// flagError turns a parse error of fs into the help request or into an
// error that points at the usage.
func flagError(fs *flag.FlagSet, name string, err error) error {
	if err != flag.ErrHelp {
		return fmt.Errorf("%w (see nodeplan %s --help)", err, name)
	}
	var b strings.Builder
	input := "[-f FILE|DIR...]"
	if name == "shadow" {
		input = "[--kubeconfig FILE] [--context NAME]"
	}
	fmt.Fprintf(&b, "usage: nodeplan %s %s [flags]\n\n%s\nflags:\n", name, input, summaries[name])
	fs.SetOutput(&b)
	fs.PrintDefaults()
	return &helpRequested{usage: b.String()}
}

// summaries describe each subcommand in its usage.
var summaries = map[string]string{
	"provision": "Plans the nodes Karpenter would launch for the pending pods, cheapest first, and\n" +
		"what they cost. Exit status 0 when every pod is scheduled, 1 when some pod is not.\n",
	"consolidate": "Plans the deletions and replacements Karpenter's consolidation would make.\n",
	"drift":       "Finds drifted, expired and interrupted nodes and plans their replacements.\n",
	"repair": "Decides which unhealthy nodes Karpenter's node repair replaces (the AWS provider's policies or\n" +
		"--policy, the 20% cap per NodePool) and where their pods go. Exit status 0 on success.\n",
	"diff": "Compares the cluster now with the cluster once the pending pods are provisioned and\n" +
		"the result consolidated: nodes and prices per NodePool, the pods that move, the pending\n" +
		"pods placed. Exit status 0 when every pod is scheduled, 1 when some pod is not.\n",
	"shadow": "Watches a cluster where Karpenter runs (get, list and watch only) and prints, for each batch\n" +
		"of NodeClaims and each disruption, what nodeplan would have done and both hourly prices;\n" +
		"the summary on SIGINT, SIGTERM or after --duration.\n",
	"static": "Decides what Karpenter does with its static NodePools (spec.replicas): the NodeClaims it\n" +
		"creates, deletes and replaces for drift, and why a pool does less. Exit status 0 on success.\n",
}
