package kube

import (
	"testing"

	"github.com/nodeplan/nodeplan/packing"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLoadHelmOutput(t *testing.T) {
	c, err := loadFixture(t, "helm-ingress-nginx.yaml")
	require.NoError(t, err)
	assert.Equal(t, []string{"ingress-nginx/ingress-nginx-controller-0", "ingress-nginx/ingress-nginx-controller-1",
		"ingress-nginx/ingress-nginx-admission-create-0"}, names(c.Pods))
	assert.Equal(t, []string{"skipped 10 objects of kinds nodeplan does not read: ClusterRole ×1, ClusterRoleBinding ×1, " +
		"ConfigMap ×1, IngressClass ×1, Role ×1, RoleBinding ×1, Service ×2, ServiceAccount ×1, ValidatingWebhookConfiguration ×1"},
		c.Warnings, "one line for every kind skipped")
}

func TestLoadV1beta1Fixture(t *testing.T) {
	c, err := loadFixture(t, "karpenter-v1beta1.yaml")
	require.NoError(t, err)
	assert.Equal(t, []string{"converted 4 objects to v1 by Karpenter's v1 conversion rules: " +
		"karpenter.k8s.aws/v1beta1 EC2NodeClass ×1, karpenter.sh/v1beta1 NodeClaim ×1, karpenter.sh/v1beta1 NodePool ×2"}, c.Warnings)
	require.Len(t, c.NodePools, 2)
	def := c.NodePools[0]
	assert.Equal(t, KarpenterAPIVersion, def.APIVersion)
	assert.Equal(t, &NodeClassReference{Group: "karpenter.k8s.aws", Kind: "EC2NodeClass", Name: "default"}, def.Spec.Template.Spec.NodeClassRef)
	assert.Equal(t, "168h", def.Spec.Template.Spec.ExpireAfter)
	assert.Equal(t, Disruption{ConsolidationPolicy: "WhenEmptyOrUnderutilized", ConsolidateAfter: "0s", Budgets: []Budget{{Nodes: "10%"}}},
		def.Spec.Disruption)
	np, err := FromNodePool(&def)
	require.NoError(t, err)
	assert.Equal(t, packing.WhenEmptyOrUnderutilized, np.Disruption.Policy)
	assert.Equal(t, 2, np.Requirements.Get("karpenter.k8s.aws/instance-category").MinValues())
	require.Len(t, c.NodeClasses, 1)
	assert.Equal(t, []SelectorTerm{{Alias: "al2023@latest"}}, c.NodeClasses[0].Spec.AMISelectorTerms)
	require.Len(t, c.NodeClaims, 1)
	assert.Equal(t, "ip-10-0-1-10.ec2.internal", c.NodeClaims[0].NodeName)
}

func TestNodePoolV1beta1(t *testing.T) {
	tests := []struct {
		name, spec string
		check      func(t *testing.T, np NodePool)
		msg        string
	}{
		{"defaults: WhenUnderutilized, 720h", `{template: {spec: {requirements: []}}}`, func(t *testing.T, np NodePool) {
			assert.Equal(t, "WhenEmptyOrUnderutilized", np.Spec.Disruption.ConsolidationPolicy)
			assert.Equal(t, "0s", np.Spec.Disruption.ConsolidateAfter)
			assert.Equal(t, "720h", np.Spec.Template.Spec.ExpireAfter)
			assert.Nil(t, np.Spec.Template.Spec.NodeClassRef)
		}, ""},
		{"WhenUnderutilized with consolidateAfter Never", `{disruption: {consolidationPolicy: WhenUnderutilized, consolidateAfter: Never}}`,
			func(t *testing.T, np NodePool) { assert.Equal(t, "0s", np.Spec.Disruption.ConsolidateAfter) }, ""},
		{"WhenEmpty keeps consolidateAfter", `{disruption: {consolidationPolicy: WhenEmpty, consolidateAfter: 5m, expireAfter: Never}}`,
			func(t *testing.T, np NodePool) {
				assert.Equal(t, Disruption{ConsolidationPolicy: "WhenEmpty", ConsolidateAfter: "5m"}, np.Spec.Disruption)
				assert.Equal(t, Never, np.Spec.Template.Spec.ExpireAfter)
			}, ""},
		{"nodeClassRef apiVersion becomes group", `{template: {spec: {nodeClassRef: {apiVersion: example.com/v1, kind: MyClass, name: x}}}}`,
			func(t *testing.T, np NodePool) {
				assert.Equal(t, &NodeClassReference{Group: "example.com", Kind: "MyClass", Name: "x"}, np.Spec.Template.Spec.NodeClassRef)
			}, ""},
		{"weight, limits, taints and template labels carry over", `{weight: 7, limits: {cpu: "8"}, template: {metadata: {labels: {a: b}},
			spec: {taints: [{key: k, effect: NoSchedule}], startupTaints: [{key: s, effect: NoExecute}]}}}`,
			func(t *testing.T, np NodePool) {
				assert.Equal(t, int32(7), *np.Spec.Weight)
				assert.Equal(t, "8", np.Spec.Limits.Cpu().String())
				assert.Equal(t, map[string]string{"a": "b"}, np.Spec.Template.Metadata.Labels)
				assert.Len(t, np.Spec.Template.Spec.Taints, 1)
				assert.Len(t, np.Spec.Template.Spec.StartupTaints, 1)
			}, ""},
		{"kubelet settings that do not change allocatable are dropped", `{template: {spec: {kubelet: {clusterDNS: [10.0.0.10], cpuCFSQuota: true}}}}`,
			func(t *testing.T, np NodePool) {}, ""},
		{"kubelet settings stay with the pool", `{template: {spec: {kubelet: {maxPods: 110, kubeReserved: {cpu: 200m}}}}}`,
			func(t *testing.T, np NodePool) {
				require.NotNil(t, np.kubelet)
				assert.Equal(t, int32(110), *np.kubelet.MaxPods)
				assert.Equal(t, map[string]string{"cpu": "200m"}, np.kubelet.KubeReserved)
			}, ""},
		{"kubelet checked", `{template: {spec: {kubelet: {kubeReserved: {cpu: lots}}}}}`, nil,
			`NodePool np: spec.template.spec.kubelet.kubeReserved.cpu: "lots" is not a quantity`},
		{"WhenUnderutilized with consolidateAfter", `{disruption: {consolidationPolicy: WhenUnderutilized, consolidateAfter: 30s}}`, nil,
			"NodePool np: spec.disruption.consolidateAfter: cannot be combined with consolidationPolicy WhenUnderutilized"},
		{"WhenEmpty without consolidateAfter", `{disruption: {consolidationPolicy: WhenEmpty}}`, nil,
			"NodePool np: spec.disruption.consolidateAfter: must be set with consolidationPolicy WhenEmpty"},
		{"v1 policy name in v1beta1", `{disruption: {consolidationPolicy: WhenEmptyOrUnderutilized}}`, nil,
			`NodePool np: spec.disruption.consolidationPolicy: "WhenEmptyOrUnderutilized" is not WhenUnderutilized or WhenEmpty`},
		{"a converted pool is still validated", `{weight: 101}`, nil, "NodePool np: spec.weight: 101 is outside 1..100"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Load(Source{Name: "np.yaml", Data: []byte("apiVersion: karpenter.sh/v1beta1\nkind: NodePool\nmetadata: {name: np}\nspec: " + tc.spec + "\n")})
			if tc.msg != "" {
				require.Error(t, err)
				var de *DocumentError
				require.ErrorAs(t, err, &de)
				assert.Contains(t, err.Error(), "np.yaml: document 1: "+tc.msg)
				return
			}
			require.NoError(t, err)
			require.Len(t, c.NodePools, 1)
			tc.check(t, c.NodePools[0])
		})
	}
}

func TestEC2NodeClassV1beta1(t *testing.T) {
	tests := []struct {
		name, meta, spec string
		terms            []SelectorTerm
		devices          []BlockDeviceMapping
		msg              string
	}{
		{"AL2 without terms gets an alias", "{name: c}", "{amiFamily: AL2}", []SelectorTerm{{Alias: "al2@latest"}}, nil, ""},
		{"Windows2022 alias", "{name: c}", "{amiFamily: Windows2022}", []SelectorTerm{{Alias: "windows2022@latest"}}, nil, ""},
		{"alias version from the compatibility annotation", "{name: c, annotations: {compatibility.karpenter.k8s.aws/v1-alias-version: v20240807}}",
			"{amiFamily: Bottlerocket}", []SelectorTerm{{Alias: "bottlerocket@v20240807"}}, nil, ""},
		{"terms are kept", "{name: c}", "{amiFamily: AL2, amiSelectorTerms: [{id: ami-1}]}", []SelectorTerm{{ID: "ami-1"}}, nil, ""},
		{"Ubuntu with terms gets its root volume", "{name: c}", "{amiFamily: Ubuntu, amiSelectorTerms: [{name: ubuntu-*}]}",
			[]SelectorTerm{{Name: "ubuntu-*"}}, []BlockDeviceMapping{{DeviceName: "/dev/sda1",
				EBS: &EBSVolume{Encrypted: new(true), VolumeType: "gp3", VolumeSize: "20Gi"}}}, ""},
		{"Ubuntu keeps its own devices", "{name: c}", "{amiFamily: Ubuntu, amiSelectorTerms: [{id: ami-2}], blockDeviceMappings: [{deviceName: /dev/xvda}]}",
			[]SelectorTerm{{ID: "ami-2"}}, []BlockDeviceMapping{{DeviceName: "/dev/xvda"}}, ""},
		{"Ubuntu without terms", "{name: c}", "{amiFamily: Ubuntu}", nil, nil,
			`EC2NodeClass c: spec.amiSelectorTerms: cannot be converted to v1: amiFamily "Ubuntu" without amiSelectorTerms has no v1 equivalent`},
		{"Custom without terms", "{name: c}", "{amiFamily: Custom}", nil, nil, `EC2NodeClass c: spec.amiSelectorTerms: cannot be converted to v1`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := Load(Source{Name: "c.yaml", Data: []byte("apiVersion: karpenter.k8s.aws/v1beta1\nkind: EC2NodeClass\nmetadata: " +
				tc.meta + "\nspec: " + tc.spec + "\n")})
			if tc.msg != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), "c.yaml: document 1: "+tc.msg)
				return
			}
			require.NoError(t, err)
			require.Len(t, c.NodeClasses, 1)
			nc := c.NodeClasses[0]
			assert.Equal(t, KarpenterAWSAPIVersion, nc.APIVersion)
			assert.Equal(t, tc.terms, nc.Spec.AMISelectorTerms)
			assert.Equal(t, tc.devices, nc.Spec.BlockDeviceMappings)
			assert.NotContains(t, nc.Metadata.Annotations, annotationAliasVersion)
		})
	}
}

func TestLoadVersions(t *testing.T) {
	tests := []struct{ name, doc, msg string }{
		{"karpenter.sh/v2 NodePool", "apiVersion: karpenter.sh/v2\nkind: NodePool\nmetadata: {name: np}\n",
			`v.yaml: document 1: NodePool np: apiVersion: unsupported apiVersion: "karpenter.sh/v2"; nodeplan reads NodePool karpenter.sh/v1, karpenter.sh/v1beta1`},
		{"apps/v1beta9 Deployment", "apiVersion: apps/v1beta9\nkind: Deployment\nmetadata: {name: d, namespace: x}\n",
			`v.yaml: document 1: Deployment x/d: apiVersion: unsupported apiVersion: "apps/v1beta9"; nodeplan reads Deployment apps/v1`},
		{"extensions/v1beta1 DaemonSet", "apiVersion: extensions/v1beta1\nkind: DaemonSet\nmetadata: {name: d}\n",
			`DaemonSet default/d: apiVersion: unsupported apiVersion: "extensions/v1beta1"; nodeplan reads DaemonSet apps/v1`},
		{"policy/v1beta1 PodDisruptionBudget", "apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata: {name: p}\n",
			`PodDisruptionBudget default/p: apiVersion: unsupported apiVersion: "policy/v1beta1"; nodeplan reads PodDisruptionBudget policy/v1`},
		{"v2 Pod", "apiVersion: v2\nkind: Pod\nmetadata: {name: p}\n", `Pod default/p: apiVersion: unsupported apiVersion: "v2"; nodeplan reads Pod v1`},
		{"karpenter.k8s.aws/v1alpha1 EC2NodeClass", "apiVersion: karpenter.k8s.aws/v1alpha1\nkind: EC2NodeClass\nmetadata: {name: c}\n",
			`EC2NodeClass c: apiVersion: unsupported apiVersion: "karpenter.k8s.aws/v1alpha1"; nodeplan reads EC2NodeClass karpenter.k8s.aws/v1, karpenter.k8s.aws/v1beta1`},
		{"v1alpha5 Provisioner", "apiVersion: karpenter.sh/v1alpha5\nkind: Provisioner\nmetadata: {name: default}\n",
			`Provisioner default: apiVersion: unsupported apiVersion: "karpenter.sh/v1alpha5"; nodeplan reads Provisioner none; use karpenter.sh/v1 NodePool`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(Source{Name: "v.yaml", Data: []byte(tc.doc)})
			require.ErrorIs(t, err, ErrUnsupportedVersion)
			var de *DocumentError
			require.ErrorAs(t, err, &de)
			assert.Equal(t, "v.yaml", de.File)
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
}

func TestLoadSkippedKinds(t *testing.T) {
	c, err := Load(Source{Name: "s.yaml", Data: []byte(`
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: vj}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: a}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: b}
---
apiVersion: v1
kind: Secret
metadata: {name: s}
---
apiVersion: karpenter.sh/v1alpha1
kind: NodeOverlay
metadata: {name: o}
`)})
	require.NoError(t, err)
	assert.Equal(t, []string{"skipped 4 objects of kinds nodeplan does not read: ConfigMap ×2, Job.batch.volcano.sh ×1, Secret ×1"}, c.Warnings)
	assert.Len(t, c.Overlays, 1, "a NodeOverlay is read (issue 18)")
	assert.Empty(t, c.Pods, "a Volcano Job is not a batch/v1 Job")
}
