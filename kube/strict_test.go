package kube

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Field names are matched as the API server matches them: case-sensitive,
// each once. An unknown field is an error inside the parts nodeplan reads,
// where a misspelling changes the plan, and elsewhere one warning line
// (a newer cluster's types have fields these lack) for Kubernetes' types
// and nothing for Karpenter's, which nodeplan reads in part (issue 15).
func TestStrictFields(t *testing.T) {
	const pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"
	const pool = "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: np}\n"
	const class = "apiVersion: karpenter.k8s.aws/v1\nkind: EC2NodeClass\nmetadata: {name: c}\n"
	tests := []struct {
		name, doc string
		err       string // part of the error; "" for none
		warning   string // part of the one unknown-fields warning; "" for none
	}{
		{"a mis-cased field", pod + "spec: {nodeselector: {disk: ssd}, containers: [{name: c}]}\n",
			"Pod default/p: spec.nodeselector: unknown field: field names are case-sensitive; did you mean nodeSelector?", ""},
		{"a mis-cased field nodeplan does not read", pod + "spec: {containers: [{name: c, ImagePullPolicy: Always}]}\n",
			"spec.containers[0].ImagePullPolicy: unknown field: field names are case-sensitive; did you mean imagePullPolicy?", ""},
		{"a mis-cased kind", "apiVersion: v1\nKind: Pod\nmetadata: {name: p}\n", "Kind: unknown field: field names are case-sensitive; did you mean kind?", ""},
		{"a misspelt field in resources", pod + "spec: {containers: [{name: c, resources: {request: {cpu: \"4\"}}}]}\n",
			"Pod default/p: spec.containers[0].resources.request: unknown field in a part nodeplan reads", ""},
		{"a misspelt field in affinity", pod + "spec: {containers: [{name: c}], affinity: {nodeAffinity: " +
			"{requiredDuringScheduling: {nodeSelectorTerms: []}}}}\n", "spec.affinity.nodeAffinity.requiredDuringScheduling: unknown field", ""},
		{"a misspelt field in a toleration", pod + "spec: {containers: [{name: c}], tolerations: [{key: a, operater: Exists}]}\n",
			"spec.tolerations[0].operater: unknown field", ""},
		{"a misspelt field in a spread constraint", pod + "spec: {containers: [{name: c}], topologySpreadConstraints: " +
			"[{maxSkew: 1, topologyKey: k, whenUnsatisfiable: DoNotSchedule, labelSelectors: {}}]}\n",
			"spec.topologySpreadConstraints[0].labelSelectors: unknown field", ""},
		{"a misspelt field in a template's resources", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n" +
			"spec: {template: {spec: {containers: [{name: c, resources: {limit: {cpu: \"1\"}}}]}}}\n",
			"Deployment default/d: spec.template.spec.containers[0].resources.limit: unknown field", ""},
		{"an unknown field elsewhere is a warning", pod + "spec: {containers: [{name: c}], hostUsers2: false}\nstatus: {newField: 1}\n", "",
			"ignored 2 unknown fields, which the Kubernetes API types nodeplan is built with lack (a newer cluster's fields, or misspelt): " +
				"Pod default/p spec.hostUsers2 (s.yaml: document 1), Pod default/p status.newField (s.yaml: document 1)"},
		{"NodePool: a misspelt requirement", pool + "spec: {template: {spec: {requirement: []}}}\n",
			"NodePool np: spec.template.spec.requirement: unknown field in a part nodeplan reads", ""},
		{"NodePool: a misspelt limit field", pool + "spec: {limit: {cpu: \"10\"}, template: {spec: {}}}\n", "NodePool np: spec.limit: unknown field", ""},
		{"NodePool: a misspelt taint field", pool + "spec: {template: {spec: {taints: [{key: a, efect: NoSchedule}]}}}\n",
			"spec.template.spec.taints[0].efect: unknown field", ""},
		{"NodePool: its metadata and status are read in part", pool[:len(pool)-2] + ", uid: u, finalizers: [x]}\n" +
			"spec: {template: {spec: {}}}\nstatus: {resources: {cpu: \"4\"}, nodes: 2}\n", "", ""},
		{"EC2NodeClass: a misspelt kubelet field", class + "spec: {amiSelectorTerms: [{alias: al2023@latest}], kubelet: {maxPod: 20}}\n",
			"EC2NodeClass c: spec.kubelet.maxPod: unknown field in a part nodeplan reads", ""},
		{"EC2NodeClass: fields nodeplan does not read", class + "spec: {amiSelectorTerms: [{alias: al2023@latest}], associatePublicIPAddress: true, " +
			"instanceStorePolicy: RAID0, blockDeviceMappings: [{deviceName: /dev/xvda, rootVolume: true}]}\n" +
			"status: {instanceProfile: p, subnets: [{id: s, zone: us-east-1a, zoneID: use1-az1}]}\n", "", ""},
		{"a duplicate field in JSON", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"nodeSelector":{"a":"1"},` +
			`"containers":[{"name":"c"}],"nodeSelector":{"b":"2"}}}`, "Pod default/p: spec.nodeSelector: duplicate field", ""},
		{"a duplicate map key in JSON", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":{"app":"a","app":"b"}},` +
			`"spec":{"containers":[{"name":"c"}]}}`, "Pod default/p: metadata.labels.app: duplicate key", ""},
		{"a duplicate escaped map key in JSON", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":{"app":"a","\u0061pp":"b"}},` +
			`"spec":{"containers":[{"name":"c"}]}}`, "metadata.labels.app: duplicate key", ""},
		{"a duplicate kind in JSON", `{"apiVersion":"v1","kind":"Pod","kind":"ConfigMap","metadata":{"name":"p"}}`, "kind: duplicate field", ""},
		{"a duplicate key in YAML", pod + "spec:\n  containers: [{name: c}]\n  nodeSelector: {a: \"1\"}\n  nodeSelector: {b: \"2\"}\n",
			`key "nodeSelector" already set in map`, ""},
		{"two YAML keys one in JSON", pod + "spec:\n  containers: [{name: c}]\n  nodeSelector: {1: a, \"1\": b}\n",
			`yaml: the keys "1" (string) and 1 (int) in spec.nodeSelector are both "1" in JSON, which cannot tell them apart`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Load(Source{Name: "s.yaml", Data: []byte(tc.doc)})
			if tc.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), "s.yaml: document 1: ")
				assert.Contains(t, err.Error(), tc.err)
				return
			}
			require.NoError(t, err)
			got := warningsWith(c, "unknown field")
			if tc.warning == "" {
				assert.Empty(t, got)
				return
			}
			require.Len(t, got, 1)
			assert.Contains(t, got[0], tc.warning)
		})
	}
}

// Unknown fields of many objects are one warning line: the count and the
// first three.
func TestUnknownFieldsAggregated(t *testing.T) {
	var b strings.Builder
	for i := range 5 {
		b.WriteString("---\napiVersion: v1\nkind: Pod\nmetadata: {name: p" + string(rune('0'+i)) + "}\nspec: {containers: [{name: c}], futureField: 1}\n")
	}
	c, err := Load(Source{Name: "s.yaml", Data: []byte(b.String())})
	require.NoError(t, err)
	assert.Contains(t, c.Warnings, "ignored 5 unknown fields, which the Kubernetes API types nodeplan is built with lack "+
		"(a newer cluster's fields, or misspelt): Pod default/p0 spec.futureField (s.yaml: document 1), "+
		"Pod default/p1 spec.futureField (s.yaml: document 2), Pod default/p2 spec.futureField (s.yaml: document 3), and 2 more")
}

// A NodePool, an EC2NodeClass and a NodeClaim with every field Karpenter
// v1.14 and its AWS provider write give no unknown-field warning: the
// fields of Karpenter's objects nodeplan does not read are ignored, also
// inside the unnamed structs it reads them with (a NodeClaim's status).
func TestKarpenterV1FieldsKnown(t *testing.T) {
	data, err := os.ReadFile("testdata/manifests/karpenter-v1-full.yaml")
	require.NoError(t, err)
	c, err := Load(Source{Name: "full.yaml", Data: data})
	require.NoError(t, err)
	require.Len(t, c.NodePools, 1)
	require.Len(t, c.NodeClasses, 1)
	require.Len(t, c.NodeClaims, 1)
	assert.Equal(t, "ip-192-168-77-77.ec2.internal", c.NodeClaims[0].NodeName)
	assert.Empty(t, warningsWith(c, "unknown field"))
}
