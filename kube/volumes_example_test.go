package kube_test

import (
	"fmt"
	"os"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/kube"
	"github.com/nodeplan/nodeplan/packing"
)

// Load reads CSINodes (testdata/manifests/csinodes.yaml) as the nodes' attach limits and resolves each
// pod's claims to their CSI drivers; a pending pod whose claim is
// missing is unschedulable, as Karpenter provisions nothing for it.
func ExampleLoad_volumes() {
	data, err := os.ReadFile("testdata/manifests/csinodes.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	// One more pod, of a claim that does not exist.
	data = append(data, "---\napiVersion: v1\nkind: Pod\nmetadata: {name: csi-db-3, namespace: csi}\n"+
		"spec: {containers: [{name: db}], volumes: [{name: data, persistentVolumeClaim: {claimName: csi-data-3}}]}\n"...)
	c, err := kube.Load(kube.Source{Name: "csinodes.yaml", Data: data})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("limits of", c.Nodes[0].Name, c.Nodes[0].VolumeLimits)
	for _, p := range c.Pods {
		var claims []packing.Volume
		if p.Volumes != nil {
			claims = p.Volumes.Claims
		}
		fmt.Println(p.Key(), claims)
	}
	cat, _ := instancetypes.AWS(instancetypes.Options{CapacityTypes: []instancetypes.CapacityType{instancetypes.OnDemand}})
	p, err := c.Problem(cat)
	if err != nil {
		fmt.Println(err)
		return
	}
	plan, _ := packing.Solve(p, packing.Options{})
	for _, b := range plan.Bindings {
		fmt.Println(p.Pods[b.Pod].Key(), "on", b.Node)
	}
	fmt.Println(len(plan.NodeClaims), "new node(s)")
	for _, u := range plan.Unschedulable {
		fmt.Println(u.Reason.Kind, u.Reason.Message)
	}
	// Output:
	// limits of csi-node-1 map[ebs.csi.aws.com:2]
	// csi/csi-db-1 [{ebs.csi.aws.com csi/csi-data-1 }]
	// csi/csi-db-2 [{ebs.csi.aws.com csi/csi-data-2 }]
	// csi/csi-db-3 [{ csi/csi-data-3 PersistentVolumeClaim csi/csi-data-3 is not in the input}]
	// csi/csi-cache-0 [{ebs.csi.aws.com csi/csi-cache-0-scratch }]
	// csi/csi-cache-1 [{ebs.csi.aws.com csi/csi-cache-1-scratch }]
	// csi/csi-cache-0 on csi-node-1
	// 0 new node(s)
	// AttachLimit pod csi/csi-cache-1: node csi-node-1 would attach 3 volumes of CSI driver ebs.csi.aws.com, over its limit of 2 (as Karpenter counts CSINode allocatable); no new node either: pod csi/csi-cache-1 fits no existing node and no NodePool is defined
	// AttachLimit pod csi/csi-db-1: node csi-node-1 would attach 3 volumes of CSI driver ebs.csi.aws.com, over its limit of 2 (as Karpenter counts CSINode allocatable); no new node either: pod csi/csi-db-1 fits no existing node and no NodePool is defined
	// AttachLimit pod csi/csi-db-2: node csi-node-1 would attach 3 volumes of CSI driver ebs.csi.aws.com, over its limit of 2 (as Karpenter counts CSINode allocatable); no new node either: pod csi/csi-db-2 fits no existing node and no NodePool is defined
	// InvalidVolume pod csi/csi-db-3: Karpenter provisions no node for it: PersistentVolumeClaim csi/csi-data-3 is not in the input
}
