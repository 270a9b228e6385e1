package sidebyside

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	storagev1 "k8s.io/api/storage/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/tools/record"
	clocktesting "k8s.io/utils/clock/testing"
	"sigs.k8s.io/controller-runtime/pkg/client"
	fakecr "sigs.k8s.io/controller-runtime/pkg/client/fake"
	v1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/cloudprovider/fake"
	"sigs.k8s.io/karpenter/pkg/controllers/disruption"
	"sigs.k8s.io/karpenter/pkg/controllers/dynamicresources/deviceallocation"
	"sigs.k8s.io/karpenter/pkg/controllers/provisioning"
	"sigs.k8s.io/karpenter/pkg/controllers/state"
	"sigs.k8s.io/karpenter/pkg/events"
	"sigs.k8s.io/karpenter/pkg/state/virtualpods"
	"sigs.k8s.io/karpenter/pkg/test"
)

// ErrDisruption is returned when the Karpenter disruption harness cannot
// set a cluster up or execute a command (a pod of a deleted node found no
// home, say); branch on it with errors.Is.
var ErrDisruption = errors.New("sidebyside: karpenter disruption")

// DisruptionOptions tune [RunKarpenterConsolidation]. The zero value runs
// until no method yields a command, at most 500 commands, each executed
// in full before the next pass.
type DisruptionOptions struct {
	// MaxCommands caps the commands executed; 0 (or less) means 500.
	MaxCommands int
	// Wave leaves every command in flight, as right after
	// Queue.StartCommand (disruption/queue.go:311) while the queue waits:
	// its candidates marked for deletion with their pods still bound
	// (later simulations reschedule them, and the budgets count them as
	// disrupting), its replacements launched but not initialized. The
	// loop then measures the burst of commands Karpenter issues before
	// any completes; a candidate's price counts as saved once it is
	// marked. The zero value executes each command in full before the
	// next pass: the end state once every command has completed.
	Wave bool
}

// nopValidator accepts every command at once, as the NopValidator of
// Karpenter's suites (disruption/validation_test.go:40-43): the real one
// waits 15 s and re-simulates, which a snapshot without churn cannot fail.
type nopValidator struct{}

func (nopValidator) Validate(_ context.Context, cmd disruption.Command, _ time.Duration) (disruption.Command, error) {
	return cmd, nil
}

// disruptionHarness is one Karpenter control plane without an API server:
// a controller-runtime fake client with the field indexes Karpenter lists
// by, its fake cloud provider, state.Cluster, provisioner, orchestration
// queue and disruption methods, on a fake clock.
type disruptionHarness struct {
	ctx      context.Context
	clk      *clocktesting.FakeClock
	client   client.Client
	provider *fake.CloudProvider
	cluster  *state.Cluster
	queue    *disruption.Queue
	recorder events.Recorder
	methods  []disruption.Method
	pool     string
	prices   map[string]float64 // node name → $/h, nodes not marked for deletion
	marked   map[string]bool    // nodes marked for deletion (Wave)
	types    map[string]*cloudprovider.InstanceType
	launched int
}

// RunKarpenterConsolidation runs Karpenter's disruption loop on f to the
// end: each pass runs the methods in NewMethods' order (Emptiness,
// StaticDrift, Drift, MultiNodeConsolidation, SingleNodeConsolidation,
// disruption/controller.go:101-115) as Controller.disrupt does
// (GetCandidatesWithTotals filtered by ShouldDisrupt,
// BuildDisruptionBudgetMapping, ComputeCommands), and the first method
// yielding a command ends the pass, as Reconcile does
// (controller.go:163-179). The command then completes at once through
// [Fragmented.Complete], the code that completes nodeplan's
// (RunNodeplanLoop): replacements launched at the cheapest compatible
// offering and initialized, the candidates' pods bound where Karpenter's
// simulation put them, the candidates deleted; the next pass runs on a
// fresh harness holding the cluster as it now is (every NodeClaim
// Consolidatable). It stops when a pass yields nothing or after
// MaxCommands commands; with DisruptionOptions.Wave commands stay in
// flight in one harness instead. Duration sums the passes (computing the
// commands), not the setup or execution. Karpenter's methods shuffle and
// iterate maps, so runs of one cluster may differ.
func RunKarpenterConsolidation(f Fragmented, o DisruptionOptions) (Consolidated, error) {
	out := Consolidated{Before: f.Price()}
	limit := cmp.Or(max(o.MaxCommands, 0), 500)
	h, err := newDisruptionHarness(f)
	if err != nil {
		return out, err
	}
	for len(out.Moves) < limit {
		start := time.Now()
		cmds, m, err := h.pass()
		out.Duration += time.Since(start)
		if err != nil {
			return out, fmt.Errorf("%s: %w", f.Name, err)
		}
		if len(cmds) == 0 {
			break
		}
		for _, cmd := range cmds {
			move, err := h.move(m, cmd)
			if err != nil {
				return out, disruptionError(f.Name, err)
			}
			if o.Wave {
				err = h.execute(move, cmd)
			} else {
				f, err = f.Complete(move)
			}
			if err != nil {
				return out, disruptionError(f.Name, err)
			}
			out.Moves = append(out.Moves, move)
		}
		if !o.Wave && len(out.Moves) < limit {
			if h, err = newDisruptionHarness(f); err != nil {
				return out, err
			}
		}
	}
	if !o.Wave {
		out.After, out.End = f.Price(), f
		return out, nil
	}
	out.After = h.price()
	return out, disruptionError(f.Name, h.check(len(f.Workload.Pods)))
}

// disruptionError wraps err in ErrDisruption unless it already is one.
func disruptionError(name string, err error) error {
	if err == nil || errors.Is(err, ErrDisruption) {
		return err
	}
	return fmt.Errorf("%s: %w: %w", name, ErrDisruption, err)
}

// newDisruptionHarness builds the control plane as Karpenter's disruption
// suite does (disruption/suite_test.go:96-137), with the fake client for
// envtest, and applies f.
func newDisruptionHarness(f Fragmented) (*disruptionHarness, error) {
	ctx := quietContext("disruption")
	its, err := karpenterTypes(f.Workload)
	if err != nil {
		return nil, err
	}
	clk := clocktesting.NewFakeClock(fragmentedNow)
	kube := indexedClient()
	provider := fake.NewCloudProvider()
	provider.InstanceTypes = its
	cluster := state.NewCluster(clk, kube, provider)
	recorder := events.NewRecorder(&record.FakeRecorder{})
	prov := provisioning.NewProvisioner(kube, recorder, provider, cluster, clk,
		deviceallocation.NewController(kube), virtualpods.NewVirtualPodCache(kube))
	queue := disruption.NewQueue(kube, recorder, cluster, clk, prov)
	c := disruption.MakeConsolidation(clk, cluster, kube, prov, provider, recorder, queue)
	h := &disruptionHarness{ctx: ctx, clk: clk, client: kube, provider: provider, cluster: cluster, queue: queue,
		recorder: recorder, prices: map[string]float64{}, marked: map[string]bool{},
		methods: []disruption.Method{
			disruption.NewEmptiness(c, disruption.WithValidator(nopValidator{})),
			disruption.NewStaticDrift(cluster, prov, provider),
			disruption.NewDrift(kube, cluster, prov, recorder, clk),
			disruption.NewMultiNodeConsolidation(c, disruption.WithValidator(nopValidator{})),
			disruption.NewSingleNodeConsolidation(c, disruption.WithValidator(nopValidator{})),
		}}
	if err := h.apply(f, its); err != nil {
		return nil, fmt.Errorf("%s: %w: %w", f.Name, ErrDisruption, err)
	}
	cluster.MarkUnconsolidated()
	return h, nil
}

// indexedClient is a fake client with the field indexes Karpenter's
// operator registers (operator/operator.go:270-309) and lists by.
func indexedClient() client.Client {
	return fakecr.NewClientBuilder().
		WithIndex(&corev1.Pod{}, "spec.nodeName", func(o client.Object) []string { return []string{o.(*corev1.Pod).Spec.NodeName} }).
		WithIndex(&corev1.Node{}, "spec.providerID", func(o client.Object) []string { return []string{o.(*corev1.Node).Spec.ProviderID} }).
		WithIndex(&storagev1.VolumeAttachment{}, "spec.nodeName", func(o client.Object) []string {
			return []string{o.(*storagev1.VolumeAttachment).Spec.NodeName}
		}).
		WithIndex(&v1.NodeClaim{}, "status.providerID", func(o client.Object) []string { return []string{o.(*v1.NodeClaim).Status.ProviderID} }).
		WithIndex(&v1.NodeClaim{}, "spec.nodeClassRef.group", func(o client.Object) []string { return []string{o.(*v1.NodeClaim).Spec.NodeClassRef.Group} }).
		WithIndex(&v1.NodeClaim{}, "spec.nodeClassRef.kind", func(o client.Object) []string { return []string{o.(*v1.NodeClaim).Spec.NodeClassRef.Kind} }).
		WithIndex(&v1.NodeClaim{}, "spec.nodeClassRef.name", func(o client.Object) []string { return []string{o.(*v1.NodeClaim).Spec.NodeClassRef.Name} }).
		WithIndex(&v1.NodePool{}, "spec.template.spec.nodeClassRef.group", func(o client.Object) []string {
			return []string{o.(*v1.NodePool).Spec.Template.Spec.NodeClassRef.Group}
		}).
		WithIndex(&v1.NodePool{}, "spec.template.spec.nodeClassRef.kind", func(o client.Object) []string {
			return []string{o.(*v1.NodePool).Spec.Template.Spec.NodeClassRef.Kind}
		}).
		WithIndex(&v1.NodePool{}, "spec.template.spec.nodeClassRef.name", func(o client.Object) []string {
			return []string{o.(*v1.NodePool).Spec.Template.Spec.NodeClassRef.Name}
		}).
		Build()
}

// apply creates f's NodePool, nodes (NodeClaim and Node, initialized and
// Consolidatable), pods (bound) and PDBs, and tells the state cluster.
func (h *disruptionHarness) apply(f Fragmented, its []*cloudprovider.InstanceType) error {
	pool := nodePool(f.Workload.NodePools[0])
	pool.Spec.Disruption = v1.Disruption{
		ConsolidationPolicy: v1.ConsolidationPolicyWhenEmptyOrUnderutilized,
		ConsolidateAfter:    v1.MustParseNillableDuration("0s"),
		Budgets:             []v1.Budget{{Nodes: f.Budget}},
	}
	h.pool = pool.Name
	if err := h.client.Create(h.ctx, pool); err != nil {
		return err
	}
	h.types = map[string]*cloudprovider.InstanceType{}
	for _, it := range its {
		h.types[it.Name] = it
	}
	for _, n := range f.Nodes {
		it := h.types[n.InstanceType]
		if it == nil {
			return fmt.Errorf("node %s: instance type %q: %w", n.Name, n.InstanceType, ErrUnknownInstanceType)
		}
		if err := h.addNode(n.Name, it, n.Zone, f.nodePrice(n), true); err != nil {
			return err
		}
		for _, i := range n.Pods {
			p := pod(f.Workload.Pods[i])
			p.Spec.NodeName = n.Name
			p.Status.Phase = corev1.PodRunning
			if f.DoNotDisrupt[p.Name] {
				p.Annotations = map[string]string{v1.DoNotDisruptAnnotationKey: "true"}
			}
			if err := h.client.Create(h.ctx, p); err != nil {
				return err
			}
			if err := h.cluster.UpdatePod(h.ctx, p); err != nil {
				return err
			}
		}
	}
	for _, b := range f.PDBs {
		pdb := &policyv1.PodDisruptionBudget{
			ObjectMeta: metav1.ObjectMeta{Namespace: fragmentedNamespace, Name: b.Name},
			Spec: policyv1.PodDisruptionBudgetSpec{Selector: &metav1.LabelSelector{MatchLabels: b.Selector},
				MaxUnavailable: &intstr.IntOrString{IntVal: b.DisruptionsAllowed}},
			Status: policyv1.PodDisruptionBudgetStatus{DisruptionsAllowed: b.DisruptionsAllowed},
		}
		if err := h.client.Create(h.ctx, pdb); err != nil {
			return err
		}
	}
	return nil
}

// addNode creates a launched and registered NodeClaim and its Ready Node
// of type it in zone, labelled as the fake provider's Create labels a
// launch (the type's single-valued requirements, then the offering's zone
// and capacity type), Consolidatable, initialized when initialized says
// so, and tells the state cluster.
func (h *disruptionHarness) addNode(name string, it *cloudprovider.InstanceType, zone string, price float64, initialized bool) error {
	labels := map[string]string{}
	for key, r := range it.Requirements {
		if r.Operator() == corev1.NodeSelectorOpIn {
			labels[key] = r.Values()[0]
		}
	}
	labels[corev1.LabelTopologyZone] = zone
	labels[v1.CapacityTypeLabelKey] = onDemand
	labels[v1.NodePoolLabelKey] = h.pool
	labels[corev1.LabelHostname] = name
	labels[v1.NodeRegisteredLabelKey] = "true"
	conditions := []string{v1.ConditionTypeLaunched, v1.ConditionTypeRegistered, v1.ConditionTypeConsolidatable}
	if initialized {
		labels[v1.NodeInitializedLabelKey] = "true"
		conditions = append(conditions, v1.ConditionTypeInitialized)
	}
	nc := test.NodeClaim(v1.NodeClaim{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels},
		Status: v1.NodeClaimStatus{ProviderID: "fake://" + name, NodeName: name,
			Capacity: it.Capacity, Allocatable: it.Allocatable()},
	})
	nc.CreationTimestamp = metav1.NewTime(h.clk.Now().Add(-time.Hour))
	for _, c := range conditions {
		nc.StatusConditions().SetTrue(c)
	}
	// Nodes and NodeClaims are cluster-scoped: test.NodeClaim and
	// test.NodeClaimLinkedNode default the namespace to "default", under
	// which the fake client stores them, and then Karpenter's
	// Topology.countDomains (scheduling/topology.go:419-428) finds no node
	// by name and skips every bound pod, so spreads and affinities would
	// ignore the pods already running.
	nc.Namespace = ""
	node := test.NodeClaimLinkedNode(nc)
	node.Name, node.Namespace = name, ""
	node.CreationTimestamp = nc.CreationTimestamp
	node.Spec.Taints = nil
	node.Status.Phase = corev1.NodeRunning
	node.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue,
		LastHeartbeatTime: metav1.NewTime(h.clk.Now()), LastTransitionTime: metav1.NewTime(h.clk.Now())}}
	if err := h.client.Create(h.ctx, nc); err != nil {
		return err
	}
	if err := h.client.Create(h.ctx, node); err != nil {
		return err
	}
	h.cluster.UpdateNodeClaim(nc)
	if err := h.cluster.UpdateNode(h.ctx, node); err != nil {
		return err
	}
	h.prices[name] = price
	return nil
}

// pass runs the methods in order as Controller.disrupt does
// (disruption/controller.go:185-238) and returns the first non-empty list
// of commands (no-ops dropped) with its method.
func (h *disruptionHarness) pass() ([]disruption.Command, disruption.Method, error) {
	for _, m := range h.methods {
		candidates, totals, err := disruption.GetCandidatesWithTotals(h.ctx, h.cluster, h.client, h.recorder, h.clk,
			h.provider, m.ShouldDisrupt, m.Class(), h.queue, nil)
		if err != nil {
			return nil, m, fmt.Errorf("%w: candidates: %w", ErrDisruption, err)
		}
		if len(candidates) == 0 {
			continue
		}
		if setter, ok := m.(disruption.NodePoolTotalsSetter); ok {
			setter.SetNodePoolTotals(totals)
		}
		budgets, err := disruption.BuildDisruptionBudgetMapping(h.ctx, h.cluster, h.clk, h.client, h.provider, h.recorder, m.Reason())
		if err != nil {
			return nil, m, fmt.Errorf("%w: budgets: %w", ErrDisruption, err)
		}
		cmds, err := m.ComputeCommands(h.ctx, budgets, candidates...)
		if err != nil {
			return nil, m, fmt.Errorf("%w: %T: %w", ErrDisruption, m, err)
		}
		var out []disruption.Command
		for _, cmd := range cmds {
			if cmd.Decision() != disruption.NoOpDecision {
				out = append(out, cmd)
			}
		}
		if len(out) > 0 {
			return out, m, nil
		}
	}
	return nil, nil, nil
}

// methodNames maps ConsolidationType() to the Move's method name.
var methodNames = map[string]string{"empty": "Emptiness", disruption.MultiNodeConsolidationType: "MultiNode",
	disruption.SingleNodeConsolidationType: "SingleNode"}

// move is cmd as a Move: each replacement launched at its cheapest
// compatible offering (its pods going there), the pods the simulation put
// on existing nodes going there.
func (h *disruptionHarness) move(m disruption.Method, cmd disruption.Command) (Move, error) {
	move := Move{Method: methodNames[m.ConsolidationType()]}
	if move.Method == "" {
		move.Method = string(m.Reason())
	}
	for _, c := range cmd.Candidates {
		move.Candidates = append(move.Candidates, c.Name())
		move.Savings += h.prices[c.Name()]
	}
	for i, r := range cmd.Replacements {
		it, o := cheapestLaunch(r.NodeClaim)
		if o == nil {
			return move, fmt.Errorf("%w: replacement of %v: no available offering", ErrDisruption, move.Candidates)
		}
		move.Launches = append(move.Launches, Launch{InstanceType: it.Name, Zone: o.Requirements.Get(corev1.LabelTopologyZone).Any(), Price: o.Price})
		move.Savings -= o.Price
		for _, p := range r.Pods {
			move.Homes = append(move.Homes, Home{Pod: p.Name, Launch: i})
		}
	}
	for _, en := range cmd.Results.ExistingNodes {
		for _, p := range en.Pods {
			move.Homes = append(move.Homes, Home{Pod: p.Name, Node: en.Name()})
		}
	}
	return move, nil
}

// execute leaves move (of cmd) in flight, as a wave does: its launches
// created but not initialized, its candidates marked for deletion with
// their pods still bound; then it moves the clock on a second so that the
// cluster's consolidation state changes (state.Cluster.MarkUnconsolidated
// stamps the clock).
func (h *disruptionHarness) execute(move Move, cmd disruption.Command) error {
	for _, l := range move.Launches {
		name := fmt.Sprintf("karpenter-%d", h.launched)
		h.launched++
		if err := h.addNode(name, h.types[l.InstanceType], l.Zone, l.Price, false); err != nil {
			return err
		}
	}
	for _, c := range cmd.Candidates {
		h.cluster.MarkForDeletion(c.ProviderID())
		h.marked[c.Name()] = true
		delete(h.prices, c.Name())
	}
	h.clk.Step(time.Second)
	h.cluster.MarkUnconsolidated()
	return nil
}

// price sums the hourly prices of the nodes left.
func (h *disruptionHarness) price() float64 {
	var sum float64
	for _, name := range slices.Sorted(maps.Keys(h.prices)) {
		sum += h.prices[name]
	}
	return sum
}

// check confirms every pod is still bound to a node that exists (or, in a
// wave, is marked for deletion).
func (h *disruptionHarness) check(pods int) error {
	var list corev1.PodList
	if err := h.client.List(h.ctx, &list); err != nil {
		return err
	}
	bound := 0
	for _, p := range list.Items {
		if _, ok := h.prices[p.Spec.NodeName]; ok || h.marked[p.Spec.NodeName] {
			bound++
		}
	}
	if bound != pods {
		return fmt.Errorf("%w: %d of %d pods bound after consolidation", ErrDisruption, bound, pods)
	}
	return nil
}
