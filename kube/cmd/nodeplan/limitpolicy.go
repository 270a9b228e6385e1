package main

import (
	"fmt"

	"github.com/nodeplan/nodeplan/packing"
)

// limitPolicyFlag is provision's --limit-policy: which pods get a NodePool's
// capacity when its limits bind. most-pods (packing.LimitMostPods, the
// default) gives it first to the pods no other NodePool admits;
// largest-first (packing.LimitLargestFirst) is Karpenter's order.
type limitPolicyFlag packing.LimitPolicy

// limitPolicyNames are the flag's values, indexed by packing.LimitPolicy.
var limitPolicyNames = [...]string{packing.LimitMostPods: "most-pods", packing.LimitLargestFirst: "largest-first"}

func (f *limitPolicyFlag) String() string {
	if int(*f) < len(limitPolicyNames) {
		return limitPolicyNames[*f]
	}
	return packing.LimitPolicy(*f).String()
}

func (f *limitPolicyFlag) Set(v string) error {
	for p, name := range limitPolicyNames {
		if v == name {
			*f = limitPolicyFlag(p)
			return nil
		}
	}
	return fmt.Errorf("%q: want most-pods or largest-first", v)
}
