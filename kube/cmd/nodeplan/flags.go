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
	fs.BoolVar(&c.recursive, "R", false, "with -f DIR, also read its subdirectories (as kubectl -R)")
	fs.BoolVar(&c.recursive, "recursive", false, "same as -R")
}

// flagError turns a parse error of fs into the help request or into an
// error that points at the usage.
func flagError(fs *flag.FlagSet, name string, err error) error {
	if err != flag.ErrHelp {
		return fmt.Errorf("%w (see nodeplan %s --help)", err, name)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "usage: nodeplan %s -f FILE|DIR... [flags]\n\n%s\nflags:\n", name, summaries[name])
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
}
