package sidebyside

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
)

// ErrCompletion is returned when a [Move] cannot be completed on a
// [Fragmented] cluster: a candidate that is not a node, a displaced pod
// without exactly one home, a home that is not a node left, a launch at a
// price other than its offering's, a node over its allocatable. Branch on
// it with errors.Is.
var ErrCompletion = errors.New("sidebyside: completing a command")

// Launch is a node a [Move] brings up: its instance type, its zone and
// the $/h of the on-demand offering chosen.
type Launch struct {
	InstanceType, Zone string
	Price              float64
}

// Home is where a [Move] sends one displaced pod (by name): the existing
// node Node, or, when Node is "", the Move's Launches[Launch].
type Home struct {
	Pod    string
	Node   string
	Launch int
}

// launchPriceTolerance absorbs the rounding of a float $/h to nodeplan's
// fixed-point Price.
const launchPriceTolerance = 1e-6

// Complete returns the cluster once m has completed, the same for either
// side's commands: m's launches up and initialized (named launch-00,
// launch-01, … counting Fragmented.Launched on), every pod of m's
// candidates bound where m's Homes say, the candidates gone. It checks
// that every displaced pod has exactly one home on a node that stays or
// a launch, that no other pod moves, that each launch costs its
// offering's price (as Price counts it), and that every node receiving
// pods stays within its allocatable; a failure wraps ErrCompletion. f is
// not modified. O(nodes + pods).
func (f Fragmented) Complete(m Move) (Fragmented, error) {
	fail := func(format string, args ...any) (Fragmented, error) {
		return f, fmt.Errorf("%s: %v: %w: %s", f.Name, m.Candidates, ErrCompletion, fmt.Sprintf(format, args...))
	}
	byName := make(map[string]int, len(f.Nodes))
	for i, n := range f.Nodes {
		byName[n.Name] = i
	}
	gone := map[string]bool{}
	displaced := map[string]int{} // pod name → index in Workload.Pods
	for _, c := range m.Candidates {
		i, ok := byName[c]
		if !ok || gone[c] {
			return fail("candidate %s is not a node of the cluster (or is named twice)", c)
		}
		gone[c] = true
		for _, p := range f.Nodes[i].Pods {
			displaced[f.Workload.Pods[p].Name] = p
		}
	}
	out := f
	out.Nodes = make([]BoundNode, 0, len(f.Nodes)+len(m.Launches))
	for _, n := range f.Nodes {
		if !gone[n.Name] {
			n.Pods = slices.Clone(n.Pods)
			out.Nodes = append(out.Nodes, n)
		}
	}
	first := len(out.Nodes)
	for i, l := range m.Launches {
		n := BoundNode{Name: fmt.Sprintf("launch-%02d", f.Launched+i), InstanceType: l.InstanceType, Zone: l.Zone}
		if _, taken := byName[n.Name]; taken {
			return fail("launch name %s is taken", n.Name)
		}
		if p := f.nodePrice(n); math.Abs(p-l.Price) > launchPriceTolerance {
			return fail("launch %d (%s in %s) at %.6f/h, its offering costs %.6f/h", i, l.InstanceType, l.Zone, l.Price, p)
		}
		out.Nodes = append(out.Nodes, n)
	}
	out.Launched += len(m.Launches)
	at := make(map[string]int, len(out.Nodes))
	for i, n := range out.Nodes[:first] {
		at[n.Name] = i
	}
	received := map[int]bool{}
	for _, h := range m.Homes {
		p, ok := displaced[h.Pod]
		if !ok {
			return fail("pod %s is not on a candidate (or has two homes)", h.Pod)
		}
		delete(displaced, h.Pod)
		j := first + h.Launch
		switch {
		case h.Node != "":
			if j, ok = at[h.Node]; !ok {
				return fail("pod %s: node %s does not stay", h.Pod, h.Node)
			}
		case h.Launch < 0 || h.Launch >= len(m.Launches):
			return fail("pod %s: no launch %d", h.Pod, h.Launch)
		}
		out.Nodes[j].Pods = append(out.Nodes[j].Pods, p)
		received[j] = true
	}
	if len(displaced) > 0 {
		left := slices.Sorted(maps.Keys(displaced))
		return fail("pods without a home: %s", strings.Join(left, ", "))
	}
	for j := range received {
		slices.Sort(out.Nodes[j].Pods)
		if msg := f.overAllocatable(out.Nodes[j]); msg != "" {
			return fail("%s", msg)
		}
	}
	return out, nil
}

// overAllocatable says how n's pods exceed its type's allocatable (its
// capacity less the overhead) in CPU, memory or pods, or "".
func (f Fragmented) overAllocatable(n BoundNode) string {
	for _, it := range f.Workload.InstanceTypes {
		if it.Name != n.InstanceType {
			continue
		}
		var cpu, mem int64
		for _, i := range n.Pods {
			cpu, mem = cpu+f.Workload.Pods[i].CPUMilli, mem+f.Workload.Pods[i].MemoryBytes
		}
		if cpu > it.CPUMilli-it.OverheadCPUMilli || mem > it.MemoryBytes-it.OverheadMemoryBytes || int64(len(n.Pods)) > it.Pods {
			return fmt.Sprintf("%s (%s) over its allocatable: %dm, %d bytes, %d pods", n.Name, n.InstanceType, cpu, mem, len(n.Pods))
		}
		return ""
	}
	return fmt.Sprintf("%s: instance type %q unknown", n.Name, n.InstanceType)
}
