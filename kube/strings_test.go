package kube

import (
	"strings"
	"testing"

	"github.com/nodeplan/nodeplan/requirements"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLoadStrings: every string that becomes a label, taint, toleration,
// topology key or requirement is checked as Kubernetes checks it, and an
// invalid one is an error naming its field.
func TestLoadStrings(t *testing.T) {
	long := strings.Repeat("a", 64)
	pool := func(name, spec string) string {
		return "apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata: {name: '" + name + "'}\nspec: " + spec + "\n"
	}
	tests := []struct{ name, doc, msg string }{
		{"label key with a leading space", "apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: {' app': web}}\n",
			`Pod default/p: metadata.labels[" app"]: invalid requirement: label key " app"`},
		{"label value a selector's matchLabelKeys would copy", podWith(`{}`) + "---\n" +
			"apiVersion: v1\nkind: Pod\nmetadata: {name: q, labels: {app: 'bad value!'}}\nspec: {affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{topologyKey: kubernetes.io/hostname, labelSelector: {}, matchLabelKeys: [app]}]}}}\n",
			`Pod default/q: metadata.labels.app: invalid requirement: label value "bad value!"`},
		{"node label value", "apiVersion: v1\nkind: Node\nmetadata: {name: node-a, labels: {rack: 'a:b'}}\n",
			`Node node-a: metadata.labels.rack: invalid requirement: label value "a:b"`},
		{"workload template label", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {template: {metadata: {labels: {app: 'wéb'}}}}\n",
			`Deployment default/d: spec.template.metadata.labels.app: invalid requirement: label value "wéb"`},
		{"over-long label value", "apiVersion: v1\nkind: Pod\nmetadata: {name: p, labels: {app: " + long + "}}\n",
			`Pod default/p: metadata.labels.app: invalid requirement: label value "` + long + `"`},
		{"nodeSelector key with two slashes", podWith(`{nodeSelector: {a/b/c: x}}`), `Pod shop/p: spec.nodeSelector["a/b/c"]: invalid requirement: label key "a/b/c"`},
		{"node affinity value", podWith(`{affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: In, values: [a, 'zöne']}]}]}}}}`),
			`Pod shop/p: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values[1]: invalid requirement: label value "zöne"`},
		{"node affinity empty key", podWith(`{affinity: {nodeAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 1, preference: {matchExpressions: [{key: '', operator: Exists}]}}]}}}`),
			`Pod shop/p: spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].preference.matchExpressions[0].key: invalid requirement: label key ""`},
		{"Gt value that is not an integer", podWith(`{affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: cores, operator: Gt, values: [four]}]}]}}}}`),
			`matchExpressions[0].values[0]: invalid requirement: operator Gt needs an integer value, got "four"`},
		{"NodePool requirement key over 63 characters", pool("np", `{template: {spec: {requirements: [{key: `+long+`, operator: Exists}]}}}`),
			`NodePool np: spec.template.spec.requirements[0].key: invalid requirement: label key "` + long + `"`},
		{"NodePool name with a slash", pool("pool/0", "{}"), `NodePool pool/0: metadata.name: "pool/0" is not valid: `},
		{"NodePool name with unicode", pool("nämé-0", "{}"), `NodePool nämé-0: metadata.name: "nämé-0" is not valid: `},
		{"NodePool name too long for a label value", pool(long, "{}"),
			`NodePool ` + long + `: metadata.name: must be a label value, as it becomes the karpenter.sh/nodepool label: `},
		{"NodePool template label", pool("np", `{template: {metadata: {labels: {'team ': a}}}}`),
			`NodePool np: spec.template.metadata.labels["team "]: invalid requirement: label key "team "`},
		{"NodePool startup taint key", pool("np", `{template: {spec: {startupTaints: [{key: 'a b', effect: NoSchedule}]}}}`),
			`NodePool np: spec.template.spec.startupTaints[0].key: invalid requirement: label key "a b"`},
		{"node taint value", "apiVersion: v1\nkind: Node\nmetadata: {name: node-a}\nspec: {taints: [{key: a, value: 'x y', effect: NoSchedule}]}\n",
			`Node node-a: spec.taints[0].value: invalid requirement: label value "x y"`},
		{"toleration key", podWith(`{tolerations: [{key: ' x', operator: Exists}]}`), `Pod shop/p: spec.tolerations[0].key: invalid requirement: label key " x"`},
		{"toleration value", podWith(`{tolerations: [{key: x, value: 'a/b'}]}`), `Pod shop/p: spec.tolerations[0].value: invalid requirement: label value "a/b"`},
		{"toleration Exists with a value", podWith(`{tolerations: [{key: x, operator: Exists, value: v}]}`),
			`Pod shop/p: spec.tolerations[0].value: invalid requirement: "v" must be empty with operator Exists`},
		{"toleration without key must be Exists", podWith(`{tolerations: [{value: v}]}`), `Pod shop/p: spec.tolerations[0].operator: invalid requirement: must be Exists when the key is empty`},
		{"empty topology key", podWith(`{topologySpreadConstraints: [{maxSkew: 1, topologyKey: '', whenUnsatisfiable: DoNotSchedule, labelSelector: {}}]}`),
			`Pod shop/p: spec.topologySpreadConstraints[0].topologyKey: invalid requirement: label key ""`},
		{"topology matchLabelKeys", podWith(`{topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, matchLabelKeys: [ok, 'not ok']}]}`),
			`Pod shop/p: spec.topologySpreadConstraints[0].matchLabelKeys[1]: invalid requirement: label key "not ok"`},
		{"pod affinity topology key", podWith(`{affinity: {podAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{topologyKey: 'rack/', labelSelector: {}}]}}}`),
			`Pod shop/p: spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: invalid requirement: label key "rack/"`},
		{"pod affinity namespace", podWith(`{affinity: {podAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{topologyKey: zone, namespaces: [Shop]}]}}}`),
			`Pod shop/p: spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].namespaces[0]: "Shop" is not valid: `},
		{"pod anti-affinity mismatchLabelKeys", podWith(`{affinity: {podAntiAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 1, podAffinityTerm: {topologyKey: zone, mismatchLabelKeys: ['']}}]}}}`),
			`spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.mismatchLabelKeys[0]: invalid requirement: label key ""`},
		{"PDB selector label", "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: b}\nspec: {selector: {matchLabels: {'a b': c}}}\n",
			`PodDisruptionBudget default/b: spec.selector.matchLabels["a b"]: invalid requirement: label key "a b"`},
		{"label selector value", podWith(`{topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchExpressions: [{key: app, operator: In, values: ['x y']}]}}]}`),
			`Pod shop/p: spec.topologySpreadConstraints[0].labelSelector.matchExpressions[0].values[0]: invalid requirement: label value "x y"`},
		{"label selector expression after matchLabels", podWith(`{topologySpreadConstraints: [{maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {a: b, c: d}, matchExpressions: [{key: app, operator: In}]}}]}`),
			`Pod shop/p: spec.topologySpreadConstraints[0].labelSelector.matchExpressions[0].values: invalid requirement: operator In needs at least one value`},
		{"label selector operator", podWith(`{affinity: {podAffinity: {requiredDuringSchedulingIgnoredDuringExecution: [{topologyKey: zone, labelSelector: {matchExpressions: [{key: a, operator: Exists}, {key: b, operator: Gt, values: ["1"]}]}}]}}}`),
			`Pod shop/p: spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchExpressions[1].operator: "Gt" is not a label selector operator`},
		{"node affinity term after an empty one", podWith(`{affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{}, {matchExpressions: [{key: zone, operator: In}]}]}}}}`),
			`Pod shop/p: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[1].matchExpressions[0].values: invalid requirement: operator In needs at least one value`},
		{"node affinity matchFields", podWith(`{affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: Exists}], matchFields: [{key: metadata.name, operator: In}]}]}}}}`),
			`Pod shop/p: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].values: invalid requirement: operator In needs at least one value`},
		{"preference weight", podWith(`{affinity: {nodeAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [{weight: 1, preference: {}}, {weight: 0, preference: {matchExpressions: [{key: zone, operator: Exists}]}}]}}}`),
			`Pod shop/p: spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[1].weight: invalid requirement: weight 0 outside 1..100`},
		{"NodePool requirement without values", pool("np", `{template: {spec: {requirements: [{key: zone, operator: In}]}}}`),
			`NodePool np: spec.template.spec.requirements[0].values: invalid requirement: operator In needs at least one value`},
		{"NodePool requirement minValues", pool("np", `{template: {spec: {requirements: [{key: zone, operator: Exists}, {key: zone, operator: In, values: [a], minValues: 2}]}}}`),
			`NodePool np: spec.template.spec.requirements[1].minValues: invalid requirement: 2 exceeds the 1 values of operator In`},
		{"taint effect", "apiVersion: v1\nkind: Node\nmetadata: {name: node-a}\nspec: {taints: [{key: a, value: x, effect: Later}]}\n",
			`Node node-a: spec.taints[0].effect: invalid requirement: unknown taint effect "Later"`},
		{"toleration effect", podWith(`{tolerations: [{key: x, operator: Exists, effect: Soon}]}`),
			`Pod shop/p: spec.tolerations[0].effect: invalid requirement: unknown taint effect "Soon"`},
		{"toleration operator", podWith(`{tolerations: [{key: x, operator: Gt}]}`),
			`Pod shop/p: spec.tolerations[0].operator: "Gt" is not Equal or Exists`},
		{"pod name", "apiVersion: v1\nkind: Pod\nmetadata: {name: Web_0}\n", `Pod default/Web_0: metadata.name: "Web_0" is not valid: `},
		{"namespace", "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: 'my shop'}\n", `Pod my shop/p: metadata.namespace: "my shop" is not valid: `},
		{"StatefulSet pod name too long for its pod-name label", "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: " + long + "}\nspec: {replicas: 1}\n",
			"StatefulSet default/" + long + ": metadata.name: its pod " + long + "-0 would carry its name as the statefulset.kubernetes.io/pod-name label: "},
		{"node name standing in for its hostname label", "apiVersion: v1\nkind: Node\nmetadata: {name: " + long + ".example.com}\n",
			"Node " + long + ".example.com: metadata.name: stands in for the missing kubernetes.io/hostname label, so must be a label value: "},
		{"NodeClaim label", "apiVersion: karpenter.sh/v1\nkind: NodeClaim\nmetadata: {name: c, labels: {karpenter.sh/nodepool: 'a b'}}\n",
			`NodeClaim c: metadata.labels["karpenter.sh/nodepool"]: invalid requirement: label value "a b"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(Source{Name: "s.yaml", Data: []byte(tc.doc)})
			require.Error(t, err)
			var de *DocumentError
			require.ErrorAs(t, err, &de)
			var oe *ObjectError
			require.ErrorAs(t, err, &oe)
			assert.NotEmpty(t, oe.Field)
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
}

// TestFromNodePoolName: the public converter checks the pool name too.
func TestFromNodePoolName(t *testing.T) {
	for _, name := range []string{"", "pool/0", "nämé-0", strings.Repeat("p", 64)} {
		_, err := FromNodePool(&NodePool{Metadata: ObjectMeta{Name: name}})
		require.ErrorIs(t, err, ErrInvalid, "%q", name)
		var oe *ObjectError
		require.ErrorAs(t, err, &oe)
		assert.Equal(t, "metadata.name", oe.Field)
	}
	_, err := FromNodePool(&NodePool{Metadata: ObjectMeta{Name: strings.Repeat("p", 63)}})
	assert.NoError(t, err)
	assert.NoError(t, requirements.ValidateValue(strings.Repeat("p", 63)))
}
