package shadow

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nodeplan/nodeplan/kube"
	"github.com/nodeplan/nodeplan/kube/live"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
)

// WatchOptions tune [Watch]. The zero WatchOptions are the accountant's
// defaults, a 10 minute resync, a 100 ms tick and the wall clock.
type WatchOptions struct {
	Options
	// Resync is the informers' resync period; 0 means 10 minutes.
	Resync time.Duration
	// Tick is how often the accountant is told the time (to close
	// windows); 0 means 100 ms.
	Tick time.Duration
	// Clock reads the time; nil is time.Now.
	Clock func() time.Time
	// Warn, when set, is told what Watch leaves out (a kind the server
	// does not serve).
	Warn func(string)
}

// ErrNotSynced is wrapped by the error of a [Watch] that stopped before its
// informers had read the cluster while a list or watch was failing: the
// failure is the reason no event was reported, so it is an error, not a
// quiet stop.
var ErrNotSynced = errors.New("stopped before the cluster was read")

// Watch watches the cluster of cfg with informers (get, list and watch
// only) until ctx is done, feeds an [Accountant] the NodeClaim and Node
// changes after the initial list, and calls emit with every event, then
// with those still open (Accountant.Flush). It watches the kinds of
// live.Kinds, the ones nodeplan reads from a cluster. Before it starts the
// informers, it lists one object of each kind: a list the server refuses
// (Forbidden, Unauthorized) or that fails is a *live.ListError wrapping
// the server's error. decider is called once, on
// the snapshot of the initial list, for the Decider (a catalog in the
// cluster's region). It returns the totals; an error of emit, of decider
// or of the initial sync ends it early; ctx ending before the initial
// list is read ends it with zero totals and no error (nothing to
// report). An optional kind the server does
// not serve is left out: EC2NodeClasses with a warning, NodeOverlays and
// CapacityBuffers (live.Kind.Quiet: behind a feature gate) without one,
// as live.Read does; Karpenter's own kinds missing are an error wrapping
// live.ErrNoKarpenter, another kind missing an error.
//
// cfg.Timeout bounds the discovery requests only: the informers' lists
// and watches are bounded by client-go's reflectors. A change is timed
// when the informer's handler sees it; the snapshot an event is decided
// on is read from the informers' caches when the change is processed
// (later, under load), each kind sorted by namespace and name; the
// changes of NodeClaims and of Nodes come from two watches, each in
// order, taken in the order they arrive. The decider and the
// accountant's Start are given one snapshot, so that a NodeClaim created
// while the decider is built is a change.
func Watch(ctx context.Context, cfg *rest.Config, o WatchOptions, decider func(kube.Objects) (Decider, error), emit func(Event) error) (Totals, error) {
	o = o.withWatchDefaults()
	ctx, cancel := context.WithCancel(ctx)
	w := newWatcher(o, ctx.Done())
	defer func() {
		cancel()
		if w.factory != nil {
			w.factory.Shutdown()
		}
	}()
	err := w.start(ctx, cfg, o)
	switch {
	case ctx.Err() != nil && w.listErr.Load() != nil:
		return Totals{}, fmt.Errorf("%w: the last list or watch failed: %w", ErrNotSynced, *w.listErr.Load())
	case ctx.Err() != nil:
		return Totals{}, nil // stopped before the initial list was read: no event, nothing to report
	case err != nil:
		return Totals{}, err
	}
	initial := w.snapshot() // one snapshot for both: a NodeClaim created meanwhile is a change
	d, err := decider(initial)
	if err != nil {
		return Totals{}, err
	}
	acc := New(d, o.Options)
	acc.Start(initial)
	return w.run(ctx, acc, o, emit)
}

// start checks the resources are served and listable, starts their
// informers and waits for the initial list.
func (w *watcher) start(ctx context.Context, cfg *rest.Config, o WatchOptions) error {
	served, err := servedResources(cfg, o.Warn)
	if err != nil {
		return err
	}
	if err := listable(ctx, cfg, served); err != nil {
		return err
	}
	watching := rest.CopyConfig(cfg)
	watching.Timeout = 0 // a watch is one long request; the informers bound their lists and watches themselves
	client, err := dynamic.NewForConfig(watching)
	if err != nil {
		return err
	}
	w.factory = dynamicinformer.NewDynamicSharedInformerFactory(client, o.Resync)
	for _, r := range served {
		if err := w.inform(r); err != nil {
			return err
		}
	}
	w.factory.Start(ctx.Done())
	for _, synced := range w.factory.WaitForCacheSync(ctx.Done()) {
		if !synced {
			return fmt.Errorf("informers did not sync: %w", context.Cause(ctx))
		}
	}
	select {
	case err := <-w.failed:
		return err
	default:
		return nil
	}
}

func (o WatchOptions) withWatchDefaults() WatchOptions {
	if o.Resync <= 0 {
		o.Resync = 10 * time.Minute
	}
	if o.Tick <= 0 {
		o.Tick = 100 * time.Millisecond
	}
	if o.Clock == nil {
		o.Clock = time.Now
	}
	if o.Warn == nil {
		o.Warn = func(string) {}
	}
	return o
}

// servedResources returns the resources the server serves; Karpenter's
// NodePools and NodeClaims must be.
func servedResources(cfg *rest.Config, warn func(string)) ([]*resource, error) {
	dc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		return nil, err
	}
	lists := map[string]map[string]bool{} // group/version -> served resources
	var out []*resource
	for i := range resources {
		r := &resources[i]
		gv := r.apiVersion()
		if _, ok := lists[gv]; !ok {
			lists[gv] = map[string]bool{}
			l, err := dc.ServerResourcesForGroupVersion(gv)
			if err != nil && !apierrors.IsNotFound(err) {
				return nil, fmt.Errorf("discovery of %s: %w", gv, err)
			}
			if l != nil {
				for _, res := range l.APIResources {
					lists[gv][res.Name] = true
				}
			}
		}
		switch {
		case lists[gv][r.gvr.Resource]:
			out = append(out, r)
		case r.karpenter:
			return nil, fmt.Errorf("%w: %s %s is not served", live.ErrNoKarpenter, gv, r.gvr.Resource)
		case r.optional && r.quiet:
		case r.optional:
			warn(fmt.Sprintf("%s %s is not served: none are read", gv, r.gvr.Resource))
		default:
			return nil, fmt.Errorf("%s %s is not served", gv, r.gvr.Resource)
		}
	}
	return out, nil
}

// listable lists one object of each resource of rs, so that a list the
// server refuses (Forbidden: discovery is open to every authenticated
// user) is a *live.ListError with the server's message at once, not an
// informer retrying it forever. cfg.Timeout bounds each request.
func listable(ctx context.Context, cfg *rest.Config, rs []*resource) error {
	client, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return err
	}
	for _, r := range rs {
		if _, err := client.Resource(r.gvr).List(ctx, metav1.ListOptions{Limit: 1}); err != nil {
			return &live.ListError{Resource: r.gvr.GroupResource().String(), Err: err}
		}
	}
	return nil
}

// watcher holds the informers' stores and the changes they report.
type watcher struct {
	factory dynamicinformer.DynamicSharedInformerFactory
	stores  []store
	changes chan observed
	done    <-chan struct{} // stops the handlers' sends
	clock   func() time.Time
	warn    func(string)
	failed  chan error            // the first object that did not decode; it ends the watch
	listErr atomic.Pointer[error] // the last error of an informer's list or watch

	mu      sync.Mutex      // guards unknown: the informers decode concurrently
	unknown map[string]bool // the unknown fields warned of
}

// newWatcher returns a watcher of o whose handlers stop when done is.
func newWatcher(o WatchOptions, done <-chan struct{}) *watcher {
	return &watcher{changes: make(chan observed, 1024), done: done, clock: o.Clock, warn: o.Warn,
		failed: make(chan error, 1), unknown: map[string]bool{}}
}

// observed is a change and when the informer's handler saw it.
type observed struct {
	at time.Time
	c  Change
}

// send queues c, timed now, unless the watch is over.
func (w *watcher) send(c Change) {
	select {
	case w.changes <- observed{at: w.clock(), c: c}:
	case <-w.done:
	}
}

type store struct {
	r     *resource
	store cache.Store
}

// inform registers the informer of r: its objects are stored typed (r's
// decode), and a NodeClaim's or Node's changes after the initial list go
// to w.changes.
func (w *watcher) inform(r *resource) error {
	inf := w.factory.ForResource(r.gvr).Informer()
	if err := inf.SetWatchErrorHandlerWithContext(func(_ context.Context, _ *cache.Reflector, err error) {
		err = fmt.Errorf("%s: %w", r.kind, err)
		w.listErr.Store(&err)
	}); err != nil {
		return err
	}
	if err := inf.SetTransform(func(obj any) (any, error) { return w.typed(r, obj), nil }); err != nil {
		return err
	}
	w.stores = append(w.stores, store{r: r, store: inf.GetStore()})
	if r.kind != "NodeClaim" && r.kind != "Node" {
		return nil
	}
	_, err := inf.AddEventHandler(cache.ResourceEventHandlerDetailedFuncs{
		AddFunc: func(obj any, initial bool) {
			if !initial && decoded(obj) {
				w.send(Change{New: obj})
			}
		},
		UpdateFunc: func(old, obj any) {
			if decoded(old) && decoded(obj) {
				w.send(Change{Old: old, New: obj})
			}
		},
		DeleteFunc: func(obj any) {
			if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = w.typed(r, t.Obj)
			}
			if decoded(obj) {
				w.send(Change{Old: obj})
			}
		},
	})
	return err
}

// typed decodes an unstructured object of r with live's decoder; others
// (already typed) are returned as they are. An object that does not
// decode is returned unstructured (so the store still keys it), and its
// error ends the watch (w.failed); a field its type lacks is a warning,
// once per kind and field.
func (w *watcher) typed(r *resource, obj any) any {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return obj
	}
	data, err := u.MarshalJSON()
	var typed any
	var unknown []string
	if err == nil {
		typed, unknown, err = r.decode(data)
	}
	if err != nil {
		select {
		case w.failed <- fmt.Errorf("%s %s: %w", r.kind, objectName(u), err):
		default: // one error is enough
		}
		return u
	}
	w.warnUnknown(unknown)
	return typed
}

// warnUnknown warns of the unknown fields not warned of yet.
func (w *watcher) warnUnknown(fields []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, f := range fields {
		if !w.unknown[f] {
			w.unknown[f] = true
			w.warn("ignored an unknown field, which the API types nodeplan is built with lack (a newer server's field): " + f)
		}
	}
}

// objectName is u's namespace/name, or name.
func objectName(u *unstructured.Unstructured) string {
	if u.GetNamespace() != "" {
		return u.GetNamespace() + "/" + u.GetName()
	}
	return u.GetName()
}

// decoded reports whether obj was decoded (is not left unstructured).
func decoded(obj any) bool {
	_, bad := obj.(*unstructured.Unstructured)
	return !bad
}

// snapshot reads the stores into Objects, each kind sorted by its store
// keys (namespace/name).
func (w *watcher) snapshot() kube.Objects {
	var objs kube.Objects
	for _, s := range w.stores {
		keys := s.store.ListKeys()
		slices.SortFunc(keys, compareKeys)
		for _, k := range keys {
			if obj, ok, _ := s.store.GetByKey(k); ok && decoded(obj) { // one that is not ends the watch
				s.r.add(&objs, obj)
			}
		}
	}
	return objs
}

// run feeds acc until ctx is done.
func (w *watcher) run(ctx context.Context, acc *Accountant, o WatchOptions, emit func(Event) error) (Totals, error) {
	ticker := time.NewTicker(o.Tick)
	defer ticker.Stop()
	emitAll := func(events []Event) error {
		for _, e := range events {
			if err := emit(e); err != nil {
				return err
			}
		}
		return nil
	}
	for {
		var events []Event
		var err error
		select {
		case <-ctx.Done():
			err := emitAll(acc.Flush(o.Clock()))
			return acc.Totals(), err
		case err := <-w.failed:
			if ferr := emitAll(acc.Flush(o.Clock())); ferr != nil {
				err = ferr
			}
			return acc.Totals(), err
		case c := <-w.changes:
			events, err = acc.Observe(c.at, c.c, w.snapshot)
		case <-ticker.C:
			if len(w.changes) > 0 {
				continue // the changes first: they happened before this tick
			}
			events = acc.Tick(o.Clock())
		}
		if err == nil {
			err = emitAll(events)
		}
		if err != nil {
			return acc.Totals(), err
		}
	}
}

// compareKeys orders store keys ("namespace/name", or "name" for a
// cluster-scoped object) by namespace, then name, as live.Read orders
// what it lists: a plain sort of the keys would put "a-b/x" before "a/x".
func compareKeys(a, b string) int {
	ans, aname, _ := cache.SplitMetaNamespaceKey(a)
	bns, bname, _ := cache.SplitMetaNamespaceKey(b)
	return cmp.Or(cmp.Compare(ans, bns), cmp.Compare(aname, bname))
}
