package main

import (
	"fmt"
	"io"
	"slices"

	"github.com/nodeplan/nodeplan/consolidation"
	"github.com/nodeplan/nodeplan/kube"
)

// thenReport is the JSON of provision --then-consolidate -o json: the
// ProvisioningReport, its fields unchanged, with a consolidation field
// holding the ConsolidationReport of the cluster with the plan applied.
type thenReport struct {
	kube.Report
	Consolidation *consolidationReport `json:"consolidation"`
}

// consolidateApplied carries out the plan of res on its cluster
// (kube.Cluster.ConsolidationAfter) and plans consolidation there.
func consolidateApplied(c config, res *provisioned) (consolidation.Cluster, consolidation.Result, error) {
	s := &res.snap
	cl, err := s.cluster.ConsolidationAfter(res.prob, res.plan, s.catalog, s.now)
	if err != nil {
		return cl, consolidation.Result{}, err
	}
	out, err := consolidation.Plan(cl, consolidation.Options{SpotToSpot: c.spotToSpot})
	return cl, out, err
}

// writeThen prints res as provision does, then the consolidation of the
// cluster with the plan applied: in the JSON, its consolidation field; in
// the tables, the consolidate command's table without the notes and
// warnings already printed, on stdout, or on stderr beside -o yaml and
// --no-headers (as the rest of the summary). Nothing is written when the
// consolidation fails.
func writeThen(c config, res *provisioned, stdout, stderr io.Writer) error {
	cl, out, err := consolidateApplied(c, res)
	if err != nil {
		return err
	}
	r := newConsolidationReport(res.snap, cl, out)
	if c.output == "json" {
		return writeJSON(&thenReport{Report: res.report, Consolidation: &r}, stdout)
	}
	if err := write(c, res, stdout, stderr); err != nil {
		return err
	}
	w := stdout
	if c.output == "yaml" || c.noHeaders {
		w = stderr
	}
	fmt.Fprintf(w, "\nThen consolidation, on the cluster with the plan applied:\n\n")
	r.Notes = nil
	r.Warnings = slices.DeleteFunc(r.Warnings, func(s string) bool { return slices.Contains(res.report.Warnings, s) })
	return r.writeTable(w)
}
