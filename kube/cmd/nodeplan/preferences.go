package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/nodeplan/nodeplan/kube"
	"github.com/nodeplan/nodeplan/packing"
)

// preferencesFlag is provision's --preferences: respect (the default, as
// Karpenter), ignore, or within=F (packing.BudgetPreferences with
// PreferenceBudget F).
type preferencesFlag struct {
	policy packing.PreferencePolicy
	budget float64
}

func (f *preferencesFlag) String() string {
	switch f.policy {
	case packing.IgnorePreferences:
		return "ignore"
	case packing.BudgetPreferences:
		return "within=" + strconv.FormatFloat(f.budget, 'g', -1, 64)
	}
	return "respect"
}

func (f *preferencesFlag) Set(v string) error {
	switch frac, ok := strings.CutPrefix(v, "within="); {
	case v == "respect":
		*f = preferencesFlag{}
	case v == "ignore":
		*f = preferencesFlag{policy: packing.IgnorePreferences}
	case ok:
		b, err := strconv.ParseFloat(frac, 64)
		o := packing.Options{Preferences: packing.BudgetPreferences, PreferenceBudget: b}
		if err != nil || o.Validate() != nil {
			return fmt.Errorf("within=%s: want a fraction of at least 0 (within=0.10 is 10 %% above the plan that ignores preferences)", frac)
		}
		*f = preferencesFlag{policy: o.Preferences, budget: b}
	default:
		return fmt.Errorf("%q: want respect, ignore or within=FRACTION", v)
	}
	return nil
}

// options are the solver options the flag asks for.
func (f *preferencesFlag) options() packing.Options {
	return packing.Options{Preferences: f.policy, PreferenceBudget: f.budget}
}

// writePreferences prints, under --preferences within=F, each preferred
// term with whether the plan honours it and what honouring it adds to the
// hourly price; nothing under the other policies.
func writePreferences(w io.Writer, r *kube.ReportPreferences, currency string) error {
	if r == nil {
		return nil
	}
	if _, err := fmt.Fprintf(w, "\nPreferences (honoured while the plan costs at most %s%% more than ignoring them):\n",
		strconv.FormatFloat(r.Budget*100, 'g', 4, 64)); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  OWNER\tKIND\tWEIGHT\tPODS\tHONOURED\tADDS (%s/HOUR)\tTERM\n", currency)
	for _, t := range r.Terms {
		fmt.Fprintf(tw, "  %s\t%s\t%d\t%d\t%s\t%s\t%s\n", ownerName(t), t.Kind, t.Weight, t.Pods, yesNo(t.Honoured),
			costText(t), t.Term)
	}
	return tw.Flush()
}

// ownerName is the term's owner as packing.PreferenceTerm.Label writes
// it: "Deployment shop/web".
func ownerName(t kube.ReportPreference) string {
	return packing.PreferenceTerm{Namespace: t.Namespace, Owner: t.Owner}.Label()
}

func costText(t kube.ReportPreference) string {
	if !t.Measured {
		return "not measured"
	}
	return strconv.FormatFloat(t.CostPerHour, 'f', 6, 64)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
