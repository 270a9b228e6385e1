package static

import (
	"errors"
	"fmt"

	"github.com/nodeplan/nodeplan/disruption"
	"github.com/nodeplan/nodeplan/packing"
)

// validate reports every bad pool and claim of in, joined.
func validate(in Input) error {
	var errs []error
	pools := map[string]bool{}
	for _, p := range in.Pools {
		errs = append(errs, validatePool(p, pools))
	}
	claims := map[string]bool{}
	for _, c := range in.Claims {
		errs = append(errs, validateClaim(c, claims))
	}
	return errors.Join(errs...)
}

func validatePool(p Pool, seen map[string]bool) error {
	name := p.NodePool.Name
	bad := func(field string, format string, args ...any) error {
		return &InputError{Kind: "NodePool", Name: name, Field: field, Err: fmt.Errorf(format, args...)}
	}
	switch {
	case name == "":
		return bad("metadata.name", "is empty")
	case seen[name]:
		return bad("metadata.name", "duplicate")
	case p.Replicas < 0:
		return bad("spec.replicas", "%d is negative", p.Replicas)
	}
	seen[name] = true
	if v, ok := p.NodePool.Limits[packing.LimitNodes]; ok && v < 0 {
		return bad("spec.limits.nodes", "%d is negative", v)
	}
	return disruption.ValidateBudgets(p.NodePool)
}

func validateClaim(c Claim, seen map[string]bool) error {
	bad := func(field, why string) error {
		return &InputError{Kind: "NodeClaim", Name: c.Name, Field: field, Err: errors.New(why)}
	}
	switch {
	case c.Name == "":
		return bad("metadata.name", "is empty")
	case seen[c.Name]:
		return bad("metadata.name", "duplicate")
	}
	seen[c.Name] = true
	return nil
}
