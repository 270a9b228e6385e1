package kube

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
)

// A pod's volumes give it node requirements (Pod.Volumes.Requirements,
// which placement meets with its node affinity), as Karpenter's volume
// topology does: a bound claim its PersistentVolume's, an unbound one its
// StorageClass's allowedTopologies. A claim, volume or class the
// manifests lack makes the pending pod's volume invalid (Karpenter
// provisions nothing for it); when the input has no storage object at
// all, the pod is planned unconstrained, with one warning line.
func TestVolumeTopology(t *testing.T) {
	const pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ns}\nspec: {%scontainers: [{name: c}], volumes: [%s]}\n"
	const claim = "---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: %s, namespace: ns, annotations: {pv.kubernetes.io/bind-completed: \"yes\"}}\nspec: {%s}\n"
	const pv = "---\napiVersion: v1\nkind: PersistentVolume\nmetadata: {name: %s}\nspec: {%snodeAffinity: {required: {nodeSelectorTerms: [%s]}}}\n"
	const class = "---\napiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: %s}\nprovisioner: ebs.csi.aws.com\n" +
		"allowedTopologies: [{matchLabelExpressions: [{key: topology.kubernetes.io/zone, values: [%s]}]}]\n"
	const zoneB = "{matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [us-east-1b]}]}"
	const vol = "{name: data, persistentVolumeClaim: {claimName: data}}"
	const deploy = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: ns}\n" +
		"spec: {replicas: 1, template: {spec: {containers: [{name: c}], volumes: [%s]}}}\n"
	zone := func(z string) map[string]string { return map[string]string{"topology.kubernetes.io/zone": z} }
	tests := []struct {
		name     string
		doc      string
		fits     []map[string]string // node labels the pending pod matches
		misfits  []map[string]string // and does not
		warning  string              // the volume topology warning; "" for none
		nPending int
		invalid  string // the first volume's Invalid; "" for none
	}{
		{"bound to a zonal volume", fmt.Sprintf(pod, "", vol) + fmt.Sprintf(claim, "data", "volumeName: pv1") + fmt.Sprintf(pv, "pv1", "", zoneB),
			[]map[string]string{zone("us-east-1b")}, []map[string]string{zone("us-east-1a"), {}}, "", 1, ""},
		{"met with each of the pod's terms", fmt.Sprintf(pod, "affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: "+
			"{nodeSelectorTerms: [{matchExpressions: [{key: a, operator: In, values: ['1']}]}, {matchExpressions: [{key: b, operator: In, values: ['1']}]}]}}}, ", vol) +
			fmt.Sprintf(claim, "data", "volumeName: pv1") + fmt.Sprintf(pv, "pv1", "", zoneB),
			[]map[string]string{{"a": "1", "topology.kubernetes.io/zone": "us-east-1b"}, {"b": "1", "topology.kubernetes.io/zone": "us-east-1b"}},
			[]map[string]string{{"a": "1", "topology.kubernetes.io/zone": "us-east-1a"}, zone("us-east-1b")}, "", 1, ""},
		{"nodeSelector kept", fmt.Sprintf(pod, "nodeSelector: {a: '1'}, ", vol) + fmt.Sprintf(claim, "data", "volumeName: pv1") + fmt.Sprintf(pv, "pv1", "", zoneB),
			[]map[string]string{{"a": "1", "topology.kubernetes.io/zone": "us-east-1b"}}, []map[string]string{zone("us-east-1b")}, "", 1, ""},
		{"unbound, of a StorageClass", fmt.Sprintf(pod, "", vol) + fmt.Sprintf(claim, "data", "storageClassName: sc") + fmt.Sprintf(class, "sc", "us-east-1c"),
			[]map[string]string{zone("us-east-1c")}, []map[string]string{zone("us-east-1b")}, "", 1, ""},
		{"a generic ephemeral volume's claim", fmt.Sprintf(pod, "", "{name: scratch, ephemeral: {volumeClaimTemplate: {spec: {storageClassName: other}}}}") +
			fmt.Sprintf(claim, "p-scratch", "volumeName: pv1") + fmt.Sprintf(pv, "pv1", "", zoneB),
			[]map[string]string{zone("us-east-1b")}, []map[string]string{zone("us-east-1a")}, "", 1, ""},
		{"a local volume's hostname is dropped", fmt.Sprintf(pod, "", vol) + fmt.Sprintf(claim, "data", "volumeName: pv1") +
			fmt.Sprintf(pv, "pv1", "local: {path: /mnt}, ", "{matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [n1]}]}"),
			[]map[string]string{zone("us-east-1a"), {"kubernetes.io/hostname": "n2"}}, nil, "", 1, ""},
		{"a Deployment's claim", fmt.Sprintf(deploy, vol) + fmt.Sprintf(claim, "data", "volumeName: pv1") + fmt.Sprintf(pv, "pv1", "", zoneB),
			[]map[string]string{zone("us-east-1b")}, []map[string]string{zone("us-east-1a")}, "", 1, ""},
		{"a Deployment's ephemeral volume takes its template's class", fmt.Sprintf(deploy,
			"{name: scratch, ephemeral: {volumeClaimTemplate: {spec: {storageClassName: sc}}}}") + fmt.Sprintf(class, "sc", "us-east-1c"),
			[]map[string]string{zone("us-east-1c")}, []map[string]string{zone("us-east-1b")}, "", 1, ""},
		{"no storage objects", fmt.Sprintf(pod, "", vol), []map[string]string{zone("us-east-1a")}, nil,
			"volumes not checked for 1 Pod: " + whyVolumeUnknown + ": ns/p needs PersistentVolumeClaim data (v.yaml: document 1)", 1, ""},
		{"no volume", fmt.Sprintf(pod, "", vol) + fmt.Sprintf(claim, "data", "volumeName: pv1"), []map[string]string{zone("us-east-1a")}, nil,
			"", 1, "PersistentVolume pv1 of PersistentVolumeClaim ns/data is not in the input"},
		{"no class", fmt.Sprintf(pod, "", vol) + fmt.Sprintf(claim, "data", "storageClassName: sc"), []map[string]string{zone("us-east-1a")}, nil,
			"", 1, "StorageClass sc of PersistentVolumeClaim ns/data is not in the input"},
		{"a Deployment's claim, no storage objects", fmt.Sprintf(deploy, vol), []map[string]string{zone("us-east-1a")}, nil,
			"volumes not checked for 1 workload: " + whyVolumeUnknown + ": Deployment ns/web needs PersistentVolumeClaim data (v.yaml: document 1)", 1, ""},
		{"a Deployment's ephemeral volume, no storage objects", fmt.Sprintf(deploy,
			"{name: scratch, ephemeral: {volumeClaimTemplate: {spec: {storageClassName: sc}}}}"), []map[string]string{zone("us-east-1a")}, nil,
			"volumes not checked for 1 workload: " + whyVolumeUnknown + ": Deployment ns/web needs the StorageClass of volume scratch (v.yaml: document 1)", 1, ""},
		{"a Deployment's missing claim", fmt.Sprintf(deploy, vol) + fmt.Sprintf(class, "sc", "us-east-1c"), []map[string]string{zone("us-east-1a")}, nil,
			"", 1, "PersistentVolumeClaim ns/data is not in the input"},
		{"a gated pod is not looked at", fmt.Sprintf(pod, "schedulingGates: [{name: g}], ", vol), nil, nil, "", 0, ""},
		{"emptyDir needs nothing", fmt.Sprintf(pod, "", "{name: tmp, emptyDir: {}}"), []map[string]string{{}}, nil, "", 1, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Load(Source{Name: "v.yaml", Data: []byte(tc.doc)})
			require.NoError(t, err)
			require.Len(t, c.Pods, tc.nPending)
			for _, labels := range tc.fits {
				assert.NoError(t, podMatches(&c.Pods[0], labels), "%v", labels)
			}
			for _, labels := range tc.misfits {
				assert.Error(t, podMatches(&c.Pods[0], labels), "%v", labels)
			}
			if tc.nPending > 0 {
				var invalid string
				if vols := c.Pods[0].Volumes; vols != nil && len(vols.Claims) > 0 {
					invalid = vols.Claims[0].Invalid
				}
				assert.Equal(t, tc.invalid, invalid)
			}
			got := warningsWith(c, "volumes not checked")
			if tc.warning == "" {
				assert.Empty(t, got)
				return
			}
			assert.Equal(t, []string{tc.warning}, got)
		})
	}
}

// The objects volume topology is read from are checked where it reads
// them, with errors naming file, document, object and field.
func TestVolumeErrors(t *testing.T) {
	tests := []struct{ name, doc, err string }{
		{"a bad PersistentVolume requirement", "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: pv1}\n" +
			"spec: {nodeAffinity: {required: {nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: Near, values: [a]}]}]}}}\n",
			"v.yaml: document 1: PersistentVolume pv1: spec.nodeAffinity.required.nodeSelectorTerms[0].matchExpressions[0].operator"},
		{"a misspelt PersistentVolume affinity field", "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: pv1}\n" +
			"spec: {nodeAffinity: {requird: {}}}\n", "v.yaml: document 1: PersistentVolume pv1: spec.nodeAffinity.requird: unknown field"},
		{"a bad StorageClass topology", "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: sc}\n" +
			"allowedTopologies: [{matchLabelExpressions: [{key: 'bad key', values: [a]}]}]\n",
			"v.yaml: document 1: StorageClass sc: allowedTopologies"},
		{"a misspelt StorageClass topology field", "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: sc}\n" +
			"allowedTopologies: [{matchLabelExpression: []}]\n", "v.yaml: document 1: StorageClass sc: allowedTopologies[0].matchLabelExpression: unknown field"},
		{"a claim's storage class of the wrong type", "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: c, namespace: ns}\n" +
			"spec: {storageClassName: [a]}\n", "v.yaml: document 1: PersistentVolumeClaim ns/c: spec.storageClassName: cannot read array"},
		{"a PersistentVolume of another version", "apiVersion: v2\nkind: PersistentVolume\nmetadata: {name: pv1}\n",
			"v.yaml: document 1: PersistentVolume pv1: apiVersion"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(Source{Name: "v.yaml", Data: []byte(tc.doc)})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.err)
		})
	}
}

// podMatches reports whether a node of labels meets p's node affinity and
// one alternative of its volumes' requirements, as placement asks.
func podMatches(p *packing.Pod, labels map[string]string) error {
	if err := p.NodeAffinity.Matches(labels); err != nil {
		return err
	}
	if p.Volumes == nil || len(p.Volumes.Requirements) == 0 {
		return nil
	}
	return requirements.NodeAffinity{Required: p.Volumes.Requirements}.Matches(labels)
}

// A local volume whose terms are [zone us-east-1c] and [hostname
// old-node] keeps both as alternatives, in order, the second (hostname
// only) unconstrained, as Karpenter's volume topology does
// (volumetopology.go:204-215); the alternatives are tried in order
// (nodeclaim.go:149-156), so the new node is in us-east-1c. Dropping the
// whole affinity, as nodeplan did, let it go to any zone.
func TestLocalVolumeTermsInOrder(t *testing.T) {
	const doc = `apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: default}
spec: {template: {spec: {requirements: [{key: node.kubernetes.io/instance-type, operator: In, values: [m5.large]}]}}}
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ns}
spec: {containers: [{name: c}], volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: ns, annotations: {pv.kubernetes.io/bind-completed: "yes"}}
spec: {volumeName: pv1}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv1}
spec:
  local: {path: /mnt}
  nodeAffinity: {required: {nodeSelectorTerms: [
    {matchExpressions: [{key: topology.kubernetes.io/zone, operator: In, values: [us-east-1c]}]},
    {matchExpressions: [{key: kubernetes.io/hostname, operator: In, values: [old-node]}]}]}}
`
	c, err := Load(Source{Name: "v.yaml", Data: []byte(doc)})
	require.NoError(t, err)
	require.Len(t, c.Pods, 1)
	require.NotNil(t, c.Pods[0].Volumes)
	alts := c.Pods[0].Volumes.Requirements
	require.Len(t, alts, 2)
	assert.Equal(t, []string{"us-east-1c"}, alts[0].Get("topology.kubernetes.io/zone").Values())
	assert.Zero(t, alts[1].Len(), "the hostname-only term admits every node")
	p, err := c.Problem(overlayCatalog(t))
	require.NoError(t, err)
	plan, err := packing.Solve(p, packing.Options{})
	require.NoError(t, err)
	require.Len(t, plan.NodeClaims, 1)
	assert.Equal(t, "us-east-1c", plan.NodeClaims[0].Offering.Zone)
}
