package packing_test

import (
	"fmt"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// Two deployments prefer one node per pod (a preferred hostname
// anti-affinity). Respect honours both; Ignore neither; the budget policy
// honours what fits within 10 % of Ignore's price and says what each
// preference costs.
func ExamplePreferencePolicy() {
	catalog, _ := instancetypes.AWS(instancetypes.Options{CapacityTypes: []instancetypes.CapacityType{instancetypes.OnDemand}})
	deployment := func(app string, n int, cpu, memory string) []packing.Pod {
		var pods []packing.Pod
		for i := range n {
			pods = append(pods, packing.Pod{Namespace: "shop", Name: fmt.Sprintf("%s-%d", app, i), Owner: "ReplicaSet/" + app,
				Labels:       map[string]string{"app": app},
				Requests:     resources.MustParse(map[resources.Name]string{resources.CPU: cpu, resources.Memory: memory}),
				AntiAffinity: []packing.PodAffinityTerm{{Weight: 100, TopologyKey: requirements.LabelHostname, Selector: requirements.FromLabels(map[string]string{"app": app})}}})
		}
		return pods
	}
	problem := packing.Problem{
		Catalog: catalog,
		NodePools: []packing.NodePool{{Name: "default", Requirements: requirements.MustParse(
			requirements.Expression{Key: requirements.LabelArch, Operator: requirements.In, Values: []string{"amd64"}})}},
		Pods: append(deployment("web", 12, "250m", "512Mi"), deployment("db", 3, "3", "12Gi")...),
	}
	for _, o := range []packing.Options{{}, {Preferences: packing.IgnorePreferences},
		{Preferences: packing.BudgetPreferences, PreferenceBudget: 0.10}} {
		plan, err := packing.Solve(problem, o)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s: %d nodes, %s\n", o.Preferences, len(plan.NodeClaims), plan.Price)
		for _, c := range plan.Preferences {
			fmt.Printf("  %s %s, %d pods: honoured %v, adds %s\n", c.Term.Owner, c.Term.Kind, c.Pods, c.Honoured, c.Cost)
		}
	}
	// Output:
	// Respect: 12 nodes, 0.535800/h
	// Ignore: 3 nodes, 0.470000/h
	// Budget: 5 nodes, 0.479400/h
	//   ReplicaSet/db PreferredPodAntiAffinity, 3 pods: honoured true, adds 0.009400/h
	//   ReplicaSet/web PreferredPodAntiAffinity, 12 pods: honoured false, adds 0.056400/h
}
