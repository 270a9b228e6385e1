// Command quickstart packs a realistic mixed workload onto the embedded AWS
// catalog and prints the plan as nodeplan provision does (package planview):
// one line per node, the totals, and the pods that cannot be placed,
// grouped by owner, with the reason; then how far the plan can be from the
// cheapest one placing the same pods (package bound).
//
//	go run ./examples/quickstart
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/nodeplan/nodeplan/bound"
	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/planview"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "quickstart:", err)
		os.Exit(1)
	}
}

func run(w io.Writer) error {
	catalog, err := instancetypes.AWS(instancetypes.Options{})
	if err != nil {
		return err
	}
	p := problem(catalog)
	plan, err := packing.Solve(p, packing.Options{})
	if err != nil {
		return err
	}
	v := planview.New(&p, &plan)
	o := catalog.Origin()
	if err := v.WriteTable(w, planview.Options{Currency: o.Currency, Notes: planview.Notes(o, planview.Knobs{})}); err != nil {
		return err
	}
	b, err := bound.ForPlan(p, plan, bound.Options{})
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "\n%s\n", planview.Gap(plan.Price, b, o.Currency))
	return err
}

var gpuTaint = requirements.Taint{Key: string(resources.GPU), Value: "true", Effect: requirements.NoSchedule}

// problem is the workload: web replicas spread over zones, workers, an
// arm64-only service, GPU inference, and one pod no instance type can hold.
func problem(catalog *instancetypes.Catalog) packing.Problem {
	p := packing.Problem{Catalog: catalog, NodePools: nodePools()}
	spread := packing.TopologySpread{TopologyKey: requirements.LabelZone, MaxSkew: 1,
		Selector: requirements.FromLabels(map[string]string{"app": "web"})}
	p.Pods = append(p.Pods, pods("web", 12, "500m", "1Gi", func(pod *packing.Pod) {
		pod.Labels = map[string]string{"app": "web"}
		pod.TopologySpread = []packing.TopologySpread{spread}
	})...)
	p.Pods = append(p.Pods, pods("worker", 20, "1", "2Gi", nil)...)
	p.Pods = append(p.Pods, pods("arm-api", 6, "250m", "512Mi", func(pod *packing.Pod) {
		pod.NodeAffinity = affinity(map[string]string{requirements.LabelArch: "arm64"})
	})...)
	p.Pods = append(p.Pods, pods("inference", 4, "4", "16Gi", gpu(1))...)
	p.Pods = append(p.Pods, pods("train-giant", 1, "8", "64Gi", gpu(64))...)
	return p
}

func nodePools() []packing.NodePool {
	general := requirements.MustParse(
		requirements.Expression{Key: requirements.LabelInstanceCategory, Operator: requirements.In, Values: []string{"c", "m", "r"}},
		requirements.Expression{Key: requirements.LabelInstanceGeneration, Operator: requirements.Gt, Values: []string{"4"}},
		requirements.Expression{Key: requirements.LabelCapacityType, Operator: requirements.In, Values: []string{"spot", "on-demand"}},
	)
	gpus := requirements.MustParse(
		requirements.Expression{Key: requirements.LabelInstanceGPUCount, Operator: requirements.Gt, Values: []string{"0"}},
		requirements.Expression{Key: requirements.LabelCapacityType, Operator: requirements.In, Values: []string{"on-demand"}},
	)
	return []packing.NodePool{
		{Name: "general", Requirements: general},
		{Name: "gpu", Requirements: gpus, Taints: []requirements.Taint{gpuTaint}},
	}
}

func pods(name string, n int, cpu, memory string, edit func(*packing.Pod)) []packing.Pod {
	out := make([]packing.Pod, n)
	for i := range out {
		out[i] = packing.Pod{Namespace: "default", Name: fmt.Sprintf("%s-%d", name, i), Owner: "Deployment/" + name,
			Requests: resources.MustParse(map[resources.Name]string{resources.CPU: cpu, resources.Memory: memory})}
		if edit != nil {
			edit(&out[i])
		}
	}
	return out
}

func gpu(count int64) func(*packing.Pod) {
	return func(pod *packing.Pod) {
		pod.Requests = pod.Requests.With(resources.GPU, count)
		pod.Tolerations = []requirements.Toleration{{Key: gpuTaint.Key, Operator: requirements.TolerateExists}}
	}
}

func affinity(selector map[string]string) requirements.NodeAffinity {
	a, err := requirements.NewNodeAffinity(selector, nil, nil)
	if err != nil {
		panic(err) // hard-coded selector
	}
	return a
}
