package shadow_test

import (
	"fmt"
	"time"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/kube"
	"github.com/nodeplan/nodeplan/kube/shadow"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	karpv1 "sigs.k8s.io/karpenter/pkg/apis/v1"
)

// flat is a Decider that always launches one node at 0.10 an hour and
// prices every offering at 0.192.
type flat struct{}

func (flat) Provision(kube.Objects) (shadow.Decision, error) {
	return shadow.Decision{Pending: 3, Placed: 3, Nodes: 1, Price: instancetypes.MustPriceFromDollars(0.1)}, nil
}

func (flat) Disrupt(kube.Objects, time.Time) (shadow.Decision, error) { return shadow.Decision{}, nil }

func (flat) Price(shadow.Offering) (instancetypes.Price, error) {
	return instancetypes.MustPriceFromDollars(0.192), nil
}

// An Accountant fed one NodeClaim, launched and labelled, reports one
// provisioning event once the batch window (1 s) has passed.
func ExampleAccountant() {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	acc := shadow.New(flat{}, shadow.Options{})
	acc.Start(kube.Objects{}) // the informers' initial list: no NodeClaim

	nc := &karpv1.NodeClaim{ObjectMeta: metav1.ObjectMeta{Name: "default-x1", Labels: map[string]string{
		"node.kubernetes.io/instance-type": "m5.xlarge", "topology.kubernetes.io/zone": "us-east-1a",
		"karpenter.sh/capacity-type": "on-demand"}}}
	snapshot := func() kube.Objects { return kube.Objects{NodeClaims: []karpv1.NodeClaim{*nc}} }
	if _, err := acc.Observe(t0, shadow.Change{New: nc}, snapshot); err != nil {
		panic(err)
	}
	for _, e := range acc.Tick(t0.Add(time.Second)) {
		k, _ := e.Karpenter.Change()
		d, _ := e.Difference()
		fmt.Printf("%d %s: Karpenter %d node %s, nodeplan %d node %s, difference %s\n",
			e.Seq, e.Type, len(e.Karpenter.Launched), k, e.Nodeplan.Nodes, e.Nodeplan.Price, d)
	}
	// Output:
	// 1 Provisioning: Karpenter 1 node 0.192000/h, nodeplan 1 node 0.100000/h, difference 0.092000/h
}
