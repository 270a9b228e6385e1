package sidebyside

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/record"
	"k8s.io/utils/clock"
	fakecr "sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/log"
	v1 "sigs.k8s.io/karpenter/pkg/apis/v1"
	"sigs.k8s.io/karpenter/pkg/cloudprovider"
	"sigs.k8s.io/karpenter/pkg/cloudprovider/fake"
	"sigs.k8s.io/karpenter/pkg/controllers/provisioning/scheduling"
	"sigs.k8s.io/karpenter/pkg/controllers/state"
	"sigs.k8s.io/karpenter/pkg/events"
	"sigs.k8s.io/karpenter/pkg/operator/injection"
	"sigs.k8s.io/karpenter/pkg/operator/logging"
	"sigs.k8s.io/karpenter/pkg/operator/options"
	"sigs.k8s.io/karpenter/pkg/test"

	"github.com/nodeplan/nodeplan/benchmarks/workload"
)

// Errors returned by [Prepare] and [Run.Solve]; branch on them with errors.Is.
var (
	ErrNoNodePool = errors.New("sidebyside: workload has no NodePool")
	ErrSolved     = errors.New("sidebyside: run already solved")
)

// KarpenterOptions tunes the Karpenter run. The zero value respects
// preferences, as Karpenter does by default.
type KarpenterOptions struct {
	// IgnorePreferences passes scheduling.IgnorePreferences, so preferred
	// affinities and ScheduleAnyway spreads are dropped up front.
	IgnorePreferences bool
}

// Result is what one solve produced. PricePerHour sums, over the new
// NodeClaims, the cheapest available offering among the claim's instance
// type options that is compatible with the claim's requirements. Duration
// covers Karpenter's Solve call only. The zero Result is an empty run.
type Result struct {
	Pods         int
	Scheduled    int
	NodeClaims   int
	PricePerHour float64
	Duration     time.Duration
}

// Run is a prepared Karpenter scheduler for one workload. It is single-use
// and not safe for concurrent use.
type Run struct {
	ctx       context.Context
	scheduler *scheduling.Scheduler
	pods      []*corev1.Pod
	solved    bool
}

var quietLogs sync.Once

// RunKarpenter prepares and solves w once; see [Prepare] and [Run.Solve].
func RunKarpenter(w workload.Workload, opts KarpenterOptions) (Result, error) {
	run, err := Prepare(w, opts)
	if err != nil {
		return Result{}, err
	}
	return run.Solve()
}

// Prepare converts w into Karpenter's types and builds its scheduler the way
// Karpenter's scheduling benchmark does (fake cloud provider, fake client,
// state.NewCluster, NewTopology, NewScheduler, 5 concurrent reconciles).
// Every NodePool may launch every instance type; w.DaemonSets are the
// daemonset pods whose requests Karpenter adds to every new node they
// schedule on. It does not modify w. The
// first call silences controller-runtime's global logger.
func Prepare(w workload.Workload, opts KarpenterOptions) (*Run, error) {
	if len(w.NodePools) == 0 {
		return nil, fmt.Errorf("workload %q: %w", w.Name, ErrNoNodePool)
	}
	ctx := quietContext("provisioner")
	its, err := karpenterTypes(w)
	if err != nil {
		return nil, err
	}
	pools, byPool := nodePools(w.NodePools, its)
	ps := pods(w.Pods)
	sopts := schedulerOptions(opts)

	provider := fake.NewCloudProvider()
	provider.InstanceTypes = its
	client := fakecr.NewFakeClient()
	clk := &clock.RealClock{}
	cluster := state.NewCluster(clk, client, provider)
	topology, err := scheduling.NewTopology(ctx, client, cluster, nil, pools, byPool, ps, sopts...)
	if err != nil {
		return nil, fmt.Errorf("workload %q: karpenter topology: %w", w.Name, err)
	}
	s := scheduling.NewScheduler(ctx, client, pools, cluster, nil, topology, byPool, pods(w.DaemonSets),
		events.NewRecorder(&record.FakeRecorder{}), clk, nil, nil, sopts...)
	return &Run{ctx: ctx, scheduler: s, pods: ps}, nil
}

// quietContext is the context Karpenter's code runs under here: the
// controller name, test.Options() and a no-op logger. The first call
// silences controller-runtime's global logger.
func quietContext(controller string) context.Context {
	quietLogs.Do(func() { log.SetLogger(logging.NopLogger) })
	ctx := options.ToContext(injection.WithControllerName(context.Background(), controller), test.Options())
	return log.IntoContext(ctx, logging.NopLogger)
}

func nodePools(nps []workload.NodePool, its []*cloudprovider.InstanceType) ([]*v1.NodePool, map[string][]*cloudprovider.InstanceType) {
	pools := make([]*v1.NodePool, 0, len(nps))
	byPool := make(map[string][]*cloudprovider.InstanceType, len(nps))
	for _, np := range nps {
		p := nodePool(np)
		pools = append(pools, p)
		byPool[p.Name] = its
	}
	return pools, byPool
}

func schedulerOptions(opts KarpenterOptions) []scheduling.Options {
	sopts := []scheduling.Options{scheduling.NumConcurrentReconciles(5)}
	if opts.IgnorePreferences {
		sopts = append(sopts, scheduling.IgnorePreferences)
	}
	return sopts
}

// Solve runs Karpenter's Solve once and summarises the new NodeClaims. Pods
// that Karpenter could not place are counted in Pods but not in Scheduled;
// they are not an error. A second call returns ErrSolved.
func (r *Run) Solve() (Result, error) {
	if r.solved {
		return Result{}, ErrSolved
	}
	r.solved = true
	start := time.Now()
	results, err := r.scheduler.Solve(r.ctx, r.pods)
	elapsed := time.Since(start)
	if err != nil {
		return Result{}, fmt.Errorf("karpenter solve: %w", err)
	}
	res := Result{Pods: len(r.pods), NodeClaims: len(results.NewNodeClaims), Duration: elapsed}
	for _, nc := range results.NewNodeClaims {
		res.Scheduled += len(nc.Pods)
		res.PricePerHour += launchPrice(nc)
	}
	for _, en := range results.ExistingNodes {
		res.Scheduled += len(en.Pods)
	}
	return res, nil
}

// launchPrice is the cheapest available offering, over the claim's instance
// type options, compatible with the claim's requirements; 0 when none is.
func launchPrice(nc *scheduling.NodeClaim) float64 {
	if _, o := cheapestLaunch(nc); o != nil {
		return o.Price
	}
	return 0
}

// cheapestLaunch is the instance type and offering launchPrice prices: the
// cheapest available offering compatible with the claim's requirements,
// the first option on ties; nil, nil when none is.
func cheapestLaunch(nc *scheduling.NodeClaim) (*cloudprovider.InstanceType, *cloudprovider.Offering) {
	var bestType *cloudprovider.InstanceType
	var best *cloudprovider.Offering
	for _, it := range nc.InstanceTypeOptions {
		if o := it.Offerings.Available().Compatible(nc.Requirements).Cheapest(); o != nil && (best == nil || o.Price < best.Price) {
			bestType, best = it, o
		}
	}
	return bestType, best
}
