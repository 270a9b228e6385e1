package live

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/json"

	"github.com/nodeplan/nodeplan/kube"
)

// DefaultPageSize is how many objects one list request asks for when
// Options.PageSize is 0, as kubectl's default chunk size.
const DefaultPageSize = 500

// Options say what [Read] lists and where it reports. The zero Options
// reads every namespace in pages of [DefaultPageSize] and reports
// nothing.
type Options struct {
	// Namespace, when set, narrows the pods and workloads to plan for:
	// pending pods and Deployments, ReplicaSets, StatefulSets and Jobs
	// are listed in it alone. Bound pods, Nodes, DaemonSets,
	// PodDisruptionBudgets, PersistentVolumeClaims, LimitRanges and the
	// cluster-scoped kinds are still listed cluster-wide, so that what
	// the nodes already run is counted. "" is every namespace.
	Namespace string
	// PageSize is the limit of each list request; 0 is DefaultPageSize,
	// and a negative one is an error wrapping [ErrInvalidOptions].
	PageSize int64
	// Progress, when set, receives a line now and then during a read
	// that has lasted over a second ("read 12,000 pods…"), at most one
	// a second. nil: none.
	Progress io.Writer
	// Warn, when set, is called with each warning, in order: a kind the
	// cluster does not serve and can do without (EC2NodeClasses on
	// another provider), fields nodeplan's Go types lack (a newer
	// server), the server's own warnings. nil: warnings are dropped.
	Warn func(string)

	// now is the clock of the progress lines; nil is time.Now.
	now func() time.Time
}

// Read lists every kind of [kube.Objects] from the API server cfg names:
// page by page (limit and continue), each kind's objects sorted by
// namespace and name. It only lists (get and list verbs; the ClusterRole
// in kube/deploy grants exactly what it needs). Each kind is one
// consistent list; the kinds are listed one after another, not at one
// resourceVersion, as kubectl get lists several kinds.
//
// A failed request is a [*ListError] naming the resource and namespace,
// wrapping the server's error (apierrors.IsForbidden, IsUnauthorized… hold
// on it) or the transport's. A cluster without karpenter.sh/v1 NodePools or
// NodeClaims is an error wrapping [ErrNoKarpenter]; one without
// karpenter.k8s.aws/v1 EC2NodeClasses has none, with one warning.
//
// Read makes one request per page of each kind, and holds one page's
// response besides the decoded objects. It does not modify cfg. ctx
// cancels it; cfg.Timeout bounds each request.
func Read(ctx context.Context, cfg *rest.Config, o Options) (kube.Objects, error) {
	if o.Namespace != "" {
		if errs := validation.IsDNS1123Label(o.Namespace); len(errs) > 0 {
			return kube.Objects{}, fmt.Errorf("%w: namespace %q: %s", ErrInvalidOptions, o.Namespace, errs[0])
		}
	}
	if o.PageSize < 0 {
		return kube.Objects{}, fmt.Errorf("%w: PageSize %d is negative (0 is DefaultPageSize)", ErrInvalidOptions, o.PageSize)
	}
	rd, err := newReader(ctx, cfg, o)
	if err != nil {
		return kube.Objects{}, err
	}
	var objs kube.Objects
	for _, k := range kinds() {
		if err := k.read(rd, &objs); err != nil {
			return kube.Objects{}, err
		}
	}
	rd.finish()
	return objs, nil
}

// reader is one Read: its client, options and what it reports.
type reader struct {
	ctx      context.Context
	client   *rest.RESTClient
	opts     Options
	progress progress
	unknown  unknownFields
}

func newReader(ctx context.Context, cfg *rest.Config, o Options) (*reader, error) {
	if o.PageSize == 0 {
		o.PageSize = DefaultPageSize
	}
	if o.Warn == nil {
		o.Warn = func(string) {}
	}
	if o.now == nil {
		o.now = time.Now
	}
	rd := &reader{ctx: ctx, opts: o, progress: progress{w: o.Progress, now: o.now, start: o.now()}}
	c := rest.CopyConfig(cfg)
	c.NegotiatedSerializer = serializer.NewCodecFactory(statusScheme()).WithoutConversion()
	c.WarningHandler = newWarnings(o.Warn)
	c.WarningHandlerWithContext = nil
	if c.UserAgent == "" {
		c.UserAgent = "nodeplan"
	}
	if c.QPS == 0 && c.RateLimiter == nil {
		c.QPS, c.Burst = 50, 100 // kubectl's discovery rate: a few lists, no need to queue them
	}
	var err error
	if rd.client, err = rest.UnversionedRESTClientFor(c); err != nil {
		return nil, fmt.Errorf("client configuration: %w", err)
	}
	return rd, nil
}

// statusScheme knows metav1.Status, so that a failed request's error
// carries the server's reason and message.
func statusScheme() *runtime.Scheme {
	s := runtime.NewScheme()
	metav1.AddToGroupVersion(s, schema.GroupVersion{Version: "v1"})
	return s
}

// finish reports what the whole read gathered.
func (rd *reader) finish() {
	for _, w := range rd.unknown.lines() {
		rd.opts.Warn(w)
	}
}

// page is one list response.
type page[T any] struct {
	APIVersion string          `json:"apiVersion"`
	Kind       string          `json:"kind"`
	Metadata   metav1.ListMeta `json:"metadata"`
	Items      []T             `json:"items"`
}

// query is one list: a namespace ("" all) and a field selector.
type query struct{ namespace, fieldSelector string }

// queries are the lists that read r under namespace ns ("" all).
func (r resource) queries(ns string) []query {
	switch {
	case ns == "" || r.scope == clusterScoped || r.scope == everyNamespace:
		return []query{{}}
	case r.scope == narrowed:
		return []query{{namespace: ns}}
	}
	return []query{{fieldSelector: "spec.nodeName!="}, {namespace: ns, fieldSelector: "spec.nodeName="}}
}

// path is the URL path of r's collection in namespace ns ("" all).
func (r resource) path(ns string) string {
	p := "/api/" + r.version
	if r.group != "" {
		p = "/apis/" + r.group + "/" + r.version
	}
	if ns != "" {
		p += "/namespaces/" + ns
	}
	return p + "/" + r.name
}

// list reads every object of r, sorted by key. A resource the server
// does not serve is handled as r.missing says.
func list[T any](rd *reader, r resource, key func(*T) objectKey) ([]T, error) {
	var out []T
	for _, q := range r.queries(rd.opts.Namespace) {
		var err error
		if out, err = listQuery(rd, r, q, key, out); err != nil {
			if r.missing != missingError && apierrors.IsNotFound(err) {
				return nil, rd.missing(r, q, err)
			}
			return nil, &ListError{Resource: r.qualified(), Namespace: q.namespace, Err: err}
		}
	}
	return sortByKey(out, key), nil
}

// listQuery appends the objects of one query to out, page by page. When
// the continue token expires (a read of one kind longer than etcd's
// compaction interval), it lists the query again from its first page,
// once.
func listQuery[T any](rd *reader, r resource, q query, key func(*T) objectKey, out []T) ([]T, error) {
	start, unknown := len(out), rd.unknown.clone()
	cont, restarted := "", false
	for {
		body, err := rd.get(r, q, cont)
		if err != nil && cont != "" && !restarted && apierrors.IsResourceExpired(err) {
			out, rd.unknown, cont, restarted = out[:start], unknown, "", true
			continue
		}
		if err != nil {
			return out, err
		}
		var p page[T]
		unknown, err := json.UnmarshalStrict(body, &p, json.DisallowUnknownFields)
		if err != nil {
			return out, fmt.Errorf("decoding the response: %w", err)
		}
		if r.strict {
			rd.unknown.add(r.kind, unknown, func(i int) objectKey { return key(&p.Items[i]) })
		}
		setKind(p.Items, r)
		out = append(out, p.Items...)
		rd.progress.report(len(out), r.name)
		if cont = p.Metadata.Continue; cont == "" {
			return out, nil
		}
	}
}

// get returns the body of one page of q, after the page cont ("" the
// first).
func (rd *reader) get(r resource, q query, cont string) ([]byte, error) {
	req := rd.client.Get().AbsPath(r.path(q.namespace)).Param("limit", strconv.FormatInt(rd.opts.PageSize, 10))
	if q.fieldSelector != "" {
		req = req.Param("fieldSelector", q.fieldSelector)
	}
	if cont != "" {
		req = req.Param("continue", cont)
	}
	res := req.Do(rd.ctx)
	body, err := res.Raw()
	if err != nil {
		return nil, res.Error() // the server's Status, when it sent one
	}
	return body, nil
}

// setKind writes r's apiVersion and kind into the items that lack them
// (list items of the built-in kinds do), as kubectl get -o yaml shows them.
func setKind[T any](items []T, r resource) {
	gvk := schema.GroupVersionKind{Group: r.group, Version: r.version, Kind: r.kind}
	for i := range items {
		if o, ok := any(&items[i]).(interface {
			GroupVersionKind() schema.GroupVersionKind
			SetGroupVersionKind(schema.GroupVersionKind)
		}); ok && o.GroupVersionKind().Empty() {
			o.SetGroupVersionKind(gvk)
		}
	}
}

// missing is what a 404 for r means.
func (rd *reader) missing(r resource, q query, err error) error {
	if r.missing == missingQuiet {
		return nil
	}
	if r.missing == missingWarn {
		rd.opts.Warn(fmt.Sprintf("read no %s: the API server does not serve them (%v); the cluster's Karpenter provider is not AWS's", r.qualified(), err))
		return nil
	}
	return &ListError{Resource: r.qualified(), Namespace: q.namespace,
		Err: fmt.Errorf("%w: the API server does not serve %s/%s %s (nodeplan reads Karpenter v1; for v1beta1 objects, export them with kubectl get -o yaml and give the file with -f): %w",
			ErrNoKarpenter, r.group, r.version, r.name, err)}
}

// qualified is r's resource.group, as RBAC and kubectl name it.
func (r resource) qualified() string {
	if r.group == "" {
		return r.name
	}
	return r.name + "." + r.group
}

// sortByKey returns items ordered by namespace, then name; it copies each
// item once (the objects are large, the keys small).
func sortByKey[T any](items []T, key func(*T) objectKey) []T {
	type keyed struct {
		k objectKey
		i int
	}
	keys := make([]keyed, len(items))
	for i := range items {
		keys[i] = keyed{key(&items[i]), i}
	}
	slices.SortStableFunc(keys, func(a, b keyed) int {
		return cmp.Or(cmp.Compare(a.k.namespace, b.k.namespace), cmp.Compare(a.k.name, b.k.name))
	})
	out := make([]T, len(items))
	for i, k := range keys {
		out[i] = items[k.i]
	}
	return out
}
