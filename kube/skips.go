package kube

import (
	"fmt"
	"strings"

	"github.com/nodeplan/nodeplan/planview"
	corev1 "k8s.io/api/core/v1"
)

// maxExamples is how many objects a skipped-objects warning names.
const maxExamples = 3

// skipLog gathers the objects Load skips, by kind and reason, into one
// warning line each ([skipLog.lines]). The zero skipLog is empty.
type skipLog struct {
	groups []*skipGroup // in the order of their first object
	byKey  map[string]*skipGroup
}

// skipGroup is the objects of one kind skipped for one reason: how many,
// and the first few.
type skipGroup struct {
	kind, why string
	n         int
	examples  []string
}

// add records an object of kind skipped for why; example names it (and
// where it is).
func (l *skipLog) add(kind, why, example string) {
	key := kind + "\x00" + why
	g := l.byKey[key]
	if g == nil {
		if l.byKey == nil {
			l.byKey = map[string]*skipGroup{}
		}
		g = &skipGroup{kind: kind, why: why}
		l.byKey[key] = g
		l.groups = append(l.groups, g)
	}
	g.n++
	if len(g.examples) < maxExamples {
		g.examples = append(g.examples, example)
	}
}

// lines returns one warning per group, in the order of their first
// object: "skipped 4 Pods: phase Succeeded takes no room: a (f: document
// 1), b (…), c (…), and 1 more".
func (l *skipLog) lines() []string { return l.linesAs("skipped") }

// linesAs returns the lines with verb in place of "skipped".
func (l *skipLog) linesAs(verb string) []string {
	out := make([]string, 0, len(l.groups))
	for _, g := range l.groups {
		more := ""
		if g.n > len(g.examples) {
			more = fmt.Sprintf(", and %d more", g.n-len(g.examples))
		}
		out = append(out, fmt.Sprintf("%s %s: %s: %s%s", verb, planview.Count(g.n, g.kind), g.why, strings.Join(g.examples, ", "), more))
	}
	return out
}

// Why a pending pod is left to others: neither kube-scheduler nor
// Karpenter places it (Karpenter's IsProvisionable takes only pods
// kube-scheduler marked Unschedulable, and not preempting ones).
const (
	whyGated = "spec.schedulingGates is not empty: kube-scheduler does not schedule it and Karpenter provisions " +
		"nothing for it until its gates are removed"
	whyScheduler = "spec.schedulerName is not default-scheduler: another scheduler places it, and Karpenter provisions " +
		"only for pods kube-scheduler found unschedulable"
	whyPreempting = "status.nominatedNodeName is set: it is preempting pods on that node, and Karpenter provisions " +
		"nothing for a preempting pod"
)

// unprovisioned returns why a pending pod of spec, nominated to a node
// (status.nominatedNodeName, "" for none), is left to others, and what
// its example adds ("with gate …"); "" when Karpenter would provision for
// it. Gates come first: the scheduler a gated pod names does not see it.
func unprovisioned(spec *corev1.PodSpec, nominated string) (why, detail string) {
	switch {
	case len(spec.SchedulingGates) > 0:
		names := make([]string, len(spec.SchedulingGates))
		for i, g := range spec.SchedulingGates {
			names[i] = g.Name
		}
		return whyGated, " with gate " + strings.Join(names, ", ")
	case spec.SchedulerName != "" && spec.SchedulerName != corev1.DefaultSchedulerName:
		return whyScheduler, " for " + spec.SchedulerName
	case nominated != "":
		return whyPreempting, " nominated to " + nominated
	}
	return "", ""
}
