package kube

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
)

// limitRange is what one LimitRange defaults in a container: the
// defaultRequest and default of its Container items, after the API
// server's LimitRange defaulting (SetDefaults_LimitRangeItem: default
// from max, defaultRequest from default, then from min), a later item
// taking the place of an earlier one for the same resource, as the
// LimitRanger admission plugin merges them.
type limitRange struct {
	name             string
	requests, limits corev1.ResourceList
}

// limitRangeTypes are the spec.limits[].type values Kubernetes accepts.
var limitRangeTypes = []corev1.LimitType{corev1.LimitTypeContainer, corev1.LimitTypePod, corev1.LimitTypePersistentVolumeClaim}

func (b *builder) addLimitRange(lr *corev1.LimitRange, _ *object) error {
	out := limitRange{name: lr.Name, requests: corev1.ResourceList{}, limits: corev1.ResourceList{}}
	for i := range lr.Spec.Limits {
		item := &lr.Spec.Limits[i]
		if !slices.Contains(limitRangeTypes, item.Type) {
			return objectError("LimitRange", lr.Namespace, lr.Name, fmt.Sprintf("spec.limits[%d].type", i),
				fmt.Errorf("%q is not one of %s", item.Type, typeNames()))
		}
		if err := checkItem(item); err != nil {
			return wrap("LimitRange", lr.Namespace, lr.Name, atField(fmt.Sprintf("spec.limits[%d]", i), err))
		}
		if item.Type != corev1.LimitTypeContainer {
			continue
		}
		limits := withDefaults(maps.Clone(item.Default), item.Max)
		maps.Copy(out.limits, limits)
		maps.Copy(out.requests, withDefaults(withDefaults(maps.Clone(item.DefaultRequest), limits), item.Min))
	}
	if b.limitRanges == nil {
		b.limitRanges = map[string][]limitRange{}
	}
	ns := namespace(lr.Namespace)
	b.limitRanges[ns] = append(b.limitRanges[ns], out)
	return nil
}

// checkItem checks the quantities of a LimitRange item as those of a
// resource list: for a typed LimitRange, which Load's checks of the text
// did not see (the API server's validation checks them too).
func checkItem(item *corev1.LimitRangeItem) error {
	for _, l := range []struct {
		field string
		rl    corev1.ResourceList
	}{{"max", item.Max}, {"min", item.Min}, {"default", item.Default}, {"defaultRequest", item.DefaultRequest},
		{"maxLimitRequestRatio", item.MaxLimitRequestRatio}} {
		if _, err := list(l.rl); err != nil {
			return atField(l.field, err)
		}
	}
	return nil
}

func typeNames() string {
	names := make([]string, len(limitRangeTypes))
	for i, t := range limitRangeTypes {
		names[i] = string(t)
	}
	return strings.Join(names, ", ")
}

// withDefaults returns l with every resource of defaults it lacks, added
// to l (allocated when nil).
func withDefaults(l, defaults corev1.ResourceList) corev1.ResourceList {
	for k, v := range defaults {
		if _, ok := l[k]; !ok {
			if l == nil {
				l = corev1.ResourceList{}
			}
			l[k] = v
		}
	}
	return l
}

// admit applies the LimitRanges of namespace ns to spec, the pod a
// workload would create, as the LimitRanger admission plugin does: in each
// container and init container, a resource without a request gets the
// defaultRequest, a resource without a limit the default, the first
// LimitRange by name first (the plugin takes them in its cache's order,
// which is not fixed; [builder.sortLimitRanges] warns of namespaces where
// that matters). The API server's own defaulting, which runs before
// admission, comes first: a limit without a request requests it. spec is
// Load's own copy, modified in place.
func (b *builder) admit(spec *corev1.PodSpec, ns string) {
	ranges := b.limitRanges[ns]
	if len(ranges) == 0 {
		return
	}
	for _, cs := range [][]corev1.Container{spec.Containers, spec.InitContainers} {
		for i := range cs {
			r := &cs[i].Resources
			r.Requests = withDefaults(r.Requests, r.Limits)
			for _, lr := range ranges {
				r.Requests = withDefaults(r.Requests, lr.requests)
				r.Limits = withDefaults(r.Limits, lr.limits)
			}
		}
	}
}

// sortLimitRanges puts each namespace's LimitRanges in name order and
// returns one warning per namespace where two of them default a
// container's request of one resource to different amounts, naming the
// first such resource: which one Kubernetes applied depends on the order
// of its cache, and nodeplan takes the first by name.
func (b *builder) sortLimitRanges() []string {
	var out []string
	for _, ns := range slices.Sorted(maps.Keys(b.limitRanges)) {
		ranges := b.limitRanges[ns]
		slices.SortFunc(ranges, func(x, y limitRange) int { return strings.Compare(x.name, y.name) })
		if w := conflict(ns, ranges); w != "" {
			out = append(out, w)
		}
	}
	return out
}

// conflict describes the first resource two of ranges (in name order)
// default to different requests, or returns "".
func conflict(ns string, ranges []limitRange) string {
	for i := range ranges {
		for _, k := range sortedKeys(ranges[i].requests) {
			for j := i + 1; j < len(ranges); j++ {
				if q, ok := ranges[j].requests[k]; ok && q.Cmp(ranges[i].requests[k]) != 0 {
					first := ranges[i].requests[k]
					return fmt.Sprintf("LimitRanges %s and %s of namespace %s default the %s request of containers to %s and %s: "+
						"Kubernetes applies whichever its cache lists first; nodeplan applies %s's (the first by name) to the pods it expands from workloads",
						ranges[i].name, ranges[j].name, ns, k, first.String(), q.String(), ranges[i].name)
				}
			}
		}
	}
	return ""
}
