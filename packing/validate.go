package packing

import (
	"errors"
	"fmt"
	"slices"

	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// ErrInvalidProblem is wrapped by every error Validate returns.
var ErrInvalidProblem = errors.New("invalid problem")

// FieldError names the object and field of an invalid input.
type FieldError struct {
	Object string // e.g. "pod default/web-1", "nodepool gpu"
	Field  string // e.g. "requests.cpu", "topologySpread[0].maxSkew"
	Msg    string
}

func (e *FieldError) Error() string {
	return fmt.Sprintf("%s: %s: %s", e.Object, e.Field, e.Msg)
}

// Unwrap lets errors.Is match ErrInvalidProblem.
func (e *FieldError) Unwrap() error { return ErrInvalidProblem }

// Validate reports every invalid field of p, joined; nil when p is valid.
func (p Problem) Validate() error {
	var errs []error
	add := func(obj, field, format string, args ...any) {
		errs = append(errs, &FieldError{Object: obj, Field: field, Msg: fmt.Sprintf(format, args...)})
	}
	if p.Catalog == nil && slices.ContainsFunc(p.NodePools, func(np NodePool) bool { return np.Catalog == nil }) {
		add("problem", "catalog", "no instance catalog is given")
	}
	seen := map[string]bool{}
	for i := range p.Pods {
		validatePod(&p.Pods[i], fmt.Sprintf("pod %s", podName(&p.Pods[i])), add)
		key := podName(&p.Pods[i])
		if seen[key] {
			add("pod "+key, "name", "duplicate pod (namespace/name)")
		}
		seen[key] = true
	}
	validateNodePools(p.NodePools, add)
	validateNodes(p.Nodes, add)
	for _, ds := range p.DaemonSets {
		checkResources("daemonset "+ds.Name, "requests", ds.Requests, add)
	}
	return errors.Join(errs...)
}

type adder func(obj, field, format string, args ...any)

func validatePod(p *Pod, obj string, add adder) {
	if p.Name == "" {
		add(obj, "name", "is empty")
	}
	checkResources(obj, "requests", p.Requests, add)
	for j, ts := range p.TopologySpread {
		if ts.MaxSkew < 1 {
			add(obj, fmt.Sprintf("topologySpread[%d].maxSkew", j), "is %d; must be at least 1", ts.MaxSkew)
		}
		if requirements.ValidateKey(ts.TopologyKey) != nil {
			add(obj, fmt.Sprintf("topologySpread[%d].topologyKey", j), "%q is not a label key", ts.TopologyKey)
		}
	}
	checkTerms(obj, "affinity", p.Affinity, add)
	checkTerms(obj, "antiAffinity", p.AntiAffinity, add)
	for j, hp := range p.HostPorts {
		if hp.Port < 1 || hp.Port > 65535 {
			add(obj, fmt.Sprintf("hostPorts[%d].port", j), "%d is not a port", hp.Port)
		}
	}
}

func checkTerms(obj, field string, terms []PodAffinityTerm, add adder) {
	for j, t := range terms {
		if t.Weight < 0 || t.Weight > 100 {
			add(obj, fmt.Sprintf("%s[%d].weight", field, j), "%d outside 0..100", t.Weight)
		}
		if requirements.ValidateKey(t.TopologyKey) != nil {
			add(obj, fmt.Sprintf("%s[%d].topologyKey", field, j), "%q is not a label key", t.TopologyKey)
		}
	}
}

func negative(l resources.List) bool {
	if l.CPU < 0 || l.Memory < 0 || l.EphemeralStorage < 0 || l.Pods < 0 {
		return true
	}
	for _, v := range l.Extended() {
		if v < 0 {
			return true
		}
	}
	return false
}

func checkResources(obj, field string, l resources.List, add adder) {
	for _, a := range []resources.Amount{{Name: resources.CPU, Value: l.CPU}, {Name: resources.Memory, Value: l.Memory},
		{Name: resources.EphemeralStorage, Value: l.EphemeralStorage}, {Name: resources.Pods, Value: l.Pods}} {
		if a.Value < 0 {
			add(obj, field+"."+string(a.Name), "is negative (%d)", a.Value)
		}
	}
	for name, v := range l.Extended() {
		if v < 0 {
			add(obj, field+"."+string(name), "is negative (%d)", v)
		}
	}
}

func validateNodePools(pools []NodePool, add adder) {
	seen := map[string]bool{}
	for _, np := range pools {
		obj := "nodepool " + np.Name
		if np.Name == "" || seen[np.Name] {
			add(obj, "name", "is empty or duplicate")
		}
		seen[np.Name] = true
		for j, t := range append(slices.Clip(np.Taints), np.StartupTaints...) {
			if err := t.Validate(); err != nil {
				add(obj, fmt.Sprintf("taints[%d]", j), "%v", err)
			}
		}
		for _, name := range sortedNames(np.Limits) {
			if np.Limits[name] < 0 {
				add(obj, "limits."+string(name), "is negative (%d)", np.Limits[name])
			}
		}
	}
}

func sortedNames(m map[resources.Name]int64) []resources.Name {
	names := make([]resources.Name, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

func validateNodes(nodes []Node, add adder) {
	seen := map[string]bool{}
	for i := range nodes {
		n := &nodes[i]
		obj := "node " + n.Name
		if n.Name == "" || seen[n.Name] {
			add(obj, "name", "is empty or duplicate")
		}
		seen[n.Name] = true
		checkResources(obj, "allocatable", n.Allocatable, add)
		for j := range n.Pods {
			if negative(n.Pods[j].Requests) { // named only when wrong: nodes hold most of a cluster's pods
				checkResources(fmt.Sprintf("%s pod %s", obj, podName(&n.Pods[j])), "requests", n.Pods[j].Requests, add)
			}
		}
	}
}
