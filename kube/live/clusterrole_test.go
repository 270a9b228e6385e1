package live

import (
	"os"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	rbacv1 "k8s.io/api/rbac/v1"
	"sigs.k8s.io/yaml"
)

// readOnly are the verbs the ClusterRole may grant.
var readOnly = []string{"get", "list", "watch"}

// TestClusterRole: kube/deploy/clusterrole.yaml grants get, list and watch
// on every resource Read lists, and nothing else: no other resource, no
// other verb, no wildcard, no resourceNames narrowing.
func TestClusterRole(t *testing.T) {
	data, err := os.ReadFile("../deploy/clusterrole.yaml")
	require.NoError(t, err)
	var role rbacv1.ClusterRole
	require.NoError(t, yaml.UnmarshalStrict(data, &role))
	assert.Equal(t, "ClusterRole", role.Kind)
	assert.Equal(t, "nodeplan-reader", role.Name)
	assert.Equal(t, want(), granted(t, role.Rules))
}

// want is what Read lists: group/resource → the read verbs.
func want() map[string][]string {
	out := map[string][]string{}
	for _, k := range kinds() {
		out[k.group+"/"+k.name] = readOnly
	}
	return out
}

// granted is what rules grant, group/resource → sorted verbs; a rule that
// is not plain get/list/watch on named resources fails t.
func granted(t *testing.T, rules []rbacv1.PolicyRule) map[string][]string {
	out := map[string][]string{}
	for i, r := range rules {
		assert.Empty(t, r.ResourceNames, "rule %d", i)
		assert.Empty(t, r.NonResourceURLs, "rule %d", i)
		for _, v := range r.Verbs {
			assert.Contains(t, readOnly, v, "rule %d grants a verb that is not read-only", i)
		}
		for _, g := range r.APIGroups {
			for _, res := range r.Resources {
				assert.NotContains(t, []string{g, res}, "*", "rule %d: wildcard", i)
				verbs := slices.Sorted(slices.Values(append(out[g+"/"+res], r.Verbs...)))
				out[g+"/"+res] = slices.Compact(verbs)
			}
		}
	}
	return out
}
