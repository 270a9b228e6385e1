package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/nodeplan/nodeplan/bound"
	"github.com/nodeplan/nodeplan/guide"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/kube"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/planview"
	"sigs.k8s.io/yaml"
)

// Exit codes.
const (
	exitOK            = 0
	exitUnschedulable = 1
	exitBadInput      = 2
)

const usage = `nodeplan answers what Karpenter would launch, consolidate or replace, from manifests
or, without -f, from the cluster of the kubeconfig (--kubeconfig, --context, -n|-A, --request-timeout).

usage:
  nodeplan provision [-f FILE|DIR... [-R]] [--catalog aws|azure|PATH] [--region R]
        [--zones Z,...] [--prices FILE] [--capacity-types on-demand,spot,reserved]
        [--spot-discount F] [-o table|wide|json|yaml] [--no-headers]
        [--preferences respect|ignore|within=F] [--limit-policy most-pods|largest-first] [--guided]
        [--then-consolidate [--now RFC3339] [--spot-to-spot]]
  nodeplan consolidate [-f FILE|DIR... [-R]] [--now RFC3339] [--spot-to-spot] [catalog flags] [-o table|json]
  nodeplan drift [-f FILE|DIR... [-R]] [--now RFC3339] [--expire-grace D] [catalog flags] [-o table|json]
  nodeplan repair [-f FILE|DIR... [-R]] [--now RFC3339] [--policy TYPE=STATUS:DURATION...] [catalog flags] [-o table|json]
  nodeplan static [-f FILE|DIR... [-R]] [--now RFC3339] [catalog flags] [-o table|json]
  nodeplan diff [-f FILE|DIR... [-R]] [--now RFC3339] [--spot-to-spot] [catalog flags] [-o table|wide|json]
  nodeplan shadow [--kubeconfig FILE] [--context NAME] [--duration D] [--metrics-addr ADDR]
        [--batch-idle D] [--batch-max D] [--spot-to-spot] [--expire-grace D] [catalog flags] [-o table|json]
  nodeplan version
  nodeplan help [COMMAND]

Run "nodeplan COMMAND --help" for a command's flags.
`

// run is the command line: it returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitBadInput
	}
	switch args[0] {
	case "provision":
		return provision(args[1:], stdin, stdout, stderr)
	case "consolidate":
		return consolidate(args[1:], stdin, stdout, stderr)
	case "drift":
		return driftCmd(args[1:], stdin, stdout, stderr)
	case "repair":
		return repairCmd(args[1:], stdin, stdout, stderr)
	case "diff":
		return diff(args[1:], stdin, stdout, stderr)
	case "static":
		return staticCmd(args[1:], stdin, stdout, stderr)
	case "shadow":
		return shadowCmd(args[1:], stdout, stderr)
	case "version", "--version":
		return version(args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		return help(args[1:], stdin, stdout, stderr)
	}
	fmt.Fprintf(stderr, "nodeplan: unknown command %q\n%s", args[0], usage)
	return exitBadInput
}

// help prints the usage, or with a command name that command's, on stdout.
func help(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	if args[0] == "version" || args[0] == "help" {
		fmt.Fprintf(stdout, "usage: nodeplan %s\n", args[0])
		return exitOK
	}
	return run([]string{args[0], "--help"}, stdin, stdout, stderr)
}

// files is a repeatable -f flag.
type files []string

func (f *files) String() string     { return strings.Join(*f, ",") }
func (f *files) Set(v string) error { *f = append(*f, v); return nil }

type config struct {
	files        files
	recursive    bool
	catalog      string
	region       string
	zones        string
	spotDiscount float64
	output       string
	now          string
	spotToSpot   bool
	expireGrace  time.Duration
	noHeaders    bool
	cluster      clusterConfig // without -f; see cluster.go
	// thenConsolidate is provision's --then-consolidate.
	thenConsolidate bool
	// preferences is provision's --preferences (see preferences.go).
	preferences preferencesFlag
	// limitPolicy is provision's --limit-policy (see limitpolicy.go).
	limitPolicy limitPolicyFlag
	// guided is provision's --guided: solve with package guide.
	guided bool

	prices, capacityTypes string // see catalog.go

	shadow shadowConfig // see shadow.go

	repairPolicies policyFlag // see repair.go
}

// parseFlags reads the flags of the named subcommand; outputs are the -o
// values it accepts, the first the default. -h and --help return a
// *helpRequested holding the subcommand's usage.
func parseFlags(name string, args []string, outputs ...string) (config, error) {
	var c config
	fs := flag.NewFlagSet("nodeplan "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	if name != "shadow" {
		inputFlags(fs, &c)
	}
	clusterFlags(fs, &c.cluster, name != "shadow")
	fs.StringVar(&c.catalog, "catalog", "aws", "instance catalog: aws, azure or a catalog JSON file")
	fs.StringVar(&c.region, "region", "", "region (default the region label of the NodePools' nodes, else us-east-1 for aws, eastus for azure)")
	fs.StringVar(&c.zones, "zones", "", "comma-separated zones (default the region's)")
	fs.Float64Var(&c.spotDiscount, "spot-discount", instancetypes.DefaultSpotDiscount, "fraction of the on-demand price a modelled spot price saves, 0 to 0.999; 0 prices spot at on-demand")
	fs.StringVar(&c.prices, "prices", "", "on-demand prices for --region, a file in the layout of aws-ec2-prices.json")
	fs.StringVar(&c.capacityTypes, "capacity-types", "on-demand,spot", "capacity types to offer: on-demand, spot, reserved, comma-separated")
	fs.StringVar(&c.output, "o", outputs[0], "output: "+strings.Join(outputs, ", "))
	if name != "shadow" {
		fs.StringVar(&c.now, "now", "", "the instant to decide at, RFC 3339 (default the newest creationTimestamp in the input)")
	}
	if name != "drift" && name != "repair" && name != "static" {
		fs.BoolVar(&c.spotToSpot, "spot-to-spot", false, "allow replacing spot nodes by spot nodes")
	}
	switch name {
	case "provision":
		fs.BoolVar(&c.noHeaders, "no-headers", false, "table and wide: print the node rows alone; the totals, unschedulable pods and warnings go to stderr")
		fs.BoolVar(&c.thenConsolidate, "then-consolidate", false, "then print what consolidation would do to the cluster with the plan applied (--now and --spot-to-spot are for it)")
		fs.Var(&c.preferences, "preferences", "preferred affinities and ScheduleAnyway spreads: respect (Karpenter's default), ignore, or within=F: honoured while the plan costs at most F (0.10: 10 %) more than ignoring them, the dearest relaxed first, with what each adds to the price")
		fs.BoolVar(&c.guided, "guided", false, "solve again with each NodePool narrowed to the instance types the lower bound's LP launches (all, with the first plan's, or each pool's most used) and with the pods held to the LP's nodes, and keep the cheapest such plan when it is cheaper and passes the checker (its NodeClaims then list fewer types to fall back on)")
		fs.Var(&c.limitPolicy, "limit-policy", "when a NodePool's limits bind, which pods get its capacity: most-pods (the default: first the pods no other NodePool admits) or largest-first (Karpenter's order)")
	case "drift", "shadow":
		fs.DurationVar(&c.expireGrace, "expire-grace", 0, "replace expired nodes under the budgets for this long before forcing")
	}
	if name == "shadow" {
		shadowFlags(fs, &c)
	}
	if name == "repair" {
		repairFlags(fs, &c)
	}
	parse := interspersed(fs, args)
	if name == "shadow" {
		parse = args // no file arguments: one is an error below
	}
	if err := fs.Parse(parse); err != nil {
		return c, flagError(fs, name, err)
	}
	if fs.NArg() > 0 {
		return c, fmt.Errorf("unexpected argument %q: nodeplan %s takes flags only (see nodeplan %s --help)", fs.Arg(0), name, name)
	}
	if err := checkSource(fs, &c); err != nil {
		return c, err
	}
	switch {
	case !slices.Contains(outputs, c.output):
		return c, fmt.Errorf("-o %q: want %s or %s", c.output, strings.Join(outputs[:len(outputs)-1], ", "), outputs[len(outputs)-1])
	case !(c.spotDiscount >= 0 && c.spotDiscount <= instancetypes.MaxSpotDiscount):
		return c, fmt.Errorf("--spot-discount %v: want a fraction from 0 to %v", c.spotDiscount, instancetypes.MaxSpotDiscount)
	case c.expireGrace < 0:
		return c, fmt.Errorf("--expire-grace %v: want a non-negative duration", c.expireGrace)
	case name == "provision" && !c.thenConsolidate && (c.now != "" || c.spotToSpot):
		return c, errors.New("--now and --spot-to-spot are for --then-consolidate")
	}
	return c, nil
}

func provision(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c, err := parseFlags("provision", args, "table", "wide", "json", "yaml")
	if err != nil {
		return fail("provision", err, stdout, stderr)
	}
	c.cluster.progress = stderr
	res, err := plan(c, stdin)
	if err == nil {
		err = res.bound()
	}
	if err != nil {
		return fail("provision", err, stdout, stderr)
	}
	if c.thenConsolidate {
		err = writeThen(c, &res, stdout, stderr)
	} else {
		err = write(c, &res, stdout, stderr)
	}
	if err != nil {
		return fail("provision", err, stdout, stderr)
	}
	if len(res.report.Unschedulable) > 0 {
		return exitUnschedulable
	}
	return exitOK
}

// provisioned is a solved plan as provision prints it: the view (tables),
// the report (JSON, built from the view) and the NodeClaims (YAML); and
// what it was solved from, for --then-consolidate and diff.
type provisioned struct {
	view   planview.View
	opts   planview.Options
	report kube.Report
	claims []kube.NodeClaim
	// gap is the plan's line against its certified lower bound
	// (planview.Gap).
	gap string

	snap snapshot
	prob packing.Problem
	plan packing.Plan
	// guided is guide.Solve's result under --guided, nil otherwise.
	guided *guide.Result
}

// bound adds the plan's gap to its certified lower bound (bound.ForPlan):
// the line after the table and the report's bound. Only provision prints
// it; diff, which solves the same plan, does not pay for it.
// Under --guided the bound is guide.Solve's, and a second line says
// whether the guided plan was taken.
func (res *provisioned) bound() error {
	cur := res.report.Summary.Currency
	if g := res.guided; g != nil {
		res.gap = planview.Gap(res.plan.Price, g.Bound, cur) + "\n" + guidedLine(g, cur)
		res.report.Bound = kube.NewReportBound(g.Bound, res.plan.Price)
		res.report.Bound.Guided = &kube.ReportGuided{Taken: g.Guided, Pinned: g.Pinned, UnguidedPerHour: g.Unguided.Decimal()}
		return nil
	}
	b, err := bound.ForPlan(res.prob, res.plan, bound.Options{})
	if err != nil {
		return err
	}
	res.gap = planview.Gap(res.plan.Price, b, cur)
	res.report.Bound = kube.NewReportBound(b, res.plan.Price)
	return nil
}

// guidedLine says what --guided did.
func guidedLine(g *guide.Result, currency string) string {
	switch {
	case g.Pinned:
		return fmt.Sprintf("guided by the LP's nodes (--guided): the search alone found %s %s/hour", g.Unguided.Amount(), currency)
	case g.Guided:
		return fmt.Sprintf("guided by the LP's instance types (--guided): the search alone found %s %s/hour", g.Unguided.Amount(), currency)
	}
	return fmt.Sprintf("--guided: the LP gave no cheaper plan than the search's (%s %s/hour)", g.Unguided.Amount(), currency)
}

// plan loads the manifests and the catalog and solves.
func plan(c config, stdin io.Reader) (provisioned, error) {
	s, err := load(c, stdin, time.Now)
	if err != nil {
		return provisioned{}, err
	}
	prob, err := s.cluster.Problem(s.catalog)
	if err != nil {
		return provisioned{}, err
	}
	opts := c.solverOptions()
	var guided *guide.Result
	var p packing.Plan
	if c.guided {
		g, err := guide.Solve(prob, guide.Options{Packing: opts})
		if err != nil {
			return provisioned{}, err
		}
		guided, p = &g, g.Plan
	} else if p, err = packing.Solve(prob, opts); err != nil {
		return provisioned{}, err
	}
	prices := s.prices
	res := provisioned{view: planview.New(&prob, &p), claims: kube.NodeClaims(p, s.cluster.NodePools, prices.currency),
		opts: planview.Options{Currency: prices.currency, Notes: prices.notes, Wide: c.output == "wide", NoHeaders: c.noHeaders},
		snap: s, prob: prob, plan: p, guided: guided}
	warnings := slices.Concat(s.cluster.Warnings, s.cluster.BufferWarnings(), kube.PriceWarnings(&prob))
	res.report = kube.NewReport(&res.view, kube.ReportOptions{Currency: prices.currency, Notes: prices.notes, Warnings: warnings})
	res.report.Headroom = kube.Headroom(s.cluster.Buffers, &prob, &p)
	res.report.Preferences = kube.Preferences(opts, &p)
	return res, nil
}

// solverOptions are the packing options provision's flags ask for.
func (c config) solverOptions() packing.Options {
	o := c.preferences.options()
	o.LimitPolicy = packing.LimitPolicy(c.limitPolicy)
	return o
}

// write prints res in c's output format. The tables go to stdout; with
// --no-headers only their rows do, and the notes, totals, unschedulable
// pods and warnings go to stderr, as they do beside -o yaml.
func write(c config, res *provisioned, stdout, stderr io.Writer) error {
	switch {
	case c.output == "json":
		return writeJSON(&res.report, stdout)
	case c.output == "yaml":
		if err := writeYAML(res.claims, stdout); err != nil {
			return err
		}
		return writeSummary(res, stderr)
	case c.noHeaders:
		if err := res.view.WriteTable(stdout, res.opts); err != nil {
			return err
		}
		return writeSummary(res, stderr)
	}
	if err := res.view.WriteTable(stdout, res.opts); err != nil {
		return err
	}
	if err := writeGap(stdout, res.gap); err != nil {
		return err
	}
	if err := writeHeadroom(stdout, res.report.Headroom); err != nil {
		return err
	}
	if err := writePreferences(stdout, res.report.Preferences, res.report.Summary.Currency); err != nil {
		return err
	}
	return writeWarnings(stdout, res.report.Warnings)
}

// writeSummary writes the notes, totals, unschedulable pods, headroom and
// warnings.
func writeSummary(res *provisioned, w io.Writer) error {
	if err := res.view.WriteSummary(w, res.opts); err != nil {
		return err
	}
	if err := writeGap(w, res.gap); err != nil {
		return err
	}
	if err := writeHeadroom(w, res.report.Headroom); err != nil {
		return err
	}
	if err := writePreferences(w, res.report.Preferences, res.report.Summary.Currency); err != nil {
		return err
	}
	return writeWarnings(w, res.report.Warnings)
}

// writeGap writes the plan's line against its certified lower bound
// (planview.Gap), after a blank line; nothing when it is "".
func writeGap(w io.Writer, gap string) error {
	if gap == "" {
		return nil
	}
	_, err := fmt.Fprintf(w, "\n%s\n", gap)
	return err
}

func writeYAML(claims []kube.NodeClaim, w io.Writer) error {
	for i := range claims {
		data, err := yaml.Marshal(&claims[i])
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintf(w, "---\n%s", data); err != nil {
			return err
		}
	}
	return nil
}
