package drift

import (
	"errors"
	"fmt"
	"maps"
	"slices"
)

// Validate reports every problem of in that Evaluate would paper over, each
// a *FieldError naming the object and field, joined: empty or duplicate node
// and NodePool names, and a NodeClass keyed under a name other than its own.
// The complexity is O(nodes + pools + classes log classes).
func (in Input) Validate() error {
	var errs []error
	seen := map[string]bool{}
	for i, s := range in.Nodes {
		errs = appendName(errs, seen, fmt.Sprintf("nodes[%d]", i), "node.name", s.Node.Name)
	}
	clear(seen)
	for i, t := range in.NodePools {
		errs = appendName(errs, seen, fmt.Sprintf("nodePools[%d]", i), "nodePool.name", t.NodePool.Name)
	}
	for _, k := range slices.Sorted(maps.Keys(in.NodeClasses)) {
		if c := in.NodeClasses[k]; c.Name != "" && c.Name != k {
			errs = append(errs, &FieldError{Object: "NodeClass " + k, Field: "name", Msg: fmt.Sprintf("is %q", c.Name)})
		}
	}
	return errors.Join(errs...)
}

func appendName(errs []error, seen map[string]bool, obj, field, name string) []error {
	switch {
	case name == "":
		return append(errs, &FieldError{Object: obj, Field: field, Msg: "is empty"})
	case seen[name]:
		return append(errs, &FieldError{Object: obj, Field: field, Msg: fmt.Sprintf("%q is a duplicate", name)})
	}
	seen[name] = true
	return errs
}
