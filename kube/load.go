package kube

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/nodeplan/nodeplan/buffer"
	"github.com/nodeplan/nodeplan/internal/parallel"
	"github.com/nodeplan/nodeplan/overlay"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/planview"
	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	autoscalingv1beta1 "sigs.k8s.io/karpenter/pkg/apis/autoscaling/v1beta1"
	"sigs.k8s.io/karpenter/pkg/apis/v1alpha1"
)

// Source is one manifest file: a name for messages and its bytes, YAML
// (one or more documents separated by ---) or JSON (one or more values,
// or an array of objects).
type Source struct {
	Name string
	Data []byte
}

// Cluster is what a set of manifests describes, ready for
// [Cluster.Problem]: pending pods (workloads expanded), existing nodes with
// their bound pods, daemonsets, NodePools and PodDisruptionBudgets. Every
// object that was read but not used is named in Warnings.
type Cluster struct {
	Pods                 []packing.Pod
	Nodes                []packing.Node
	DaemonSets           []packing.DaemonSet
	NodePools            []NodePool
	PodDisruptionBudgets []PodDisruptionBudget
	// NodeClaims and NodeClasses are read for nodeplan drift.
	NodeClaims  []ClaimStatus
	NodeClasses []EC2NodeClass
	// NodeConditions are the Nodes' status.conditions, by Node name, read
	// for nodeplan repair ([Cluster.Repair]).
	NodeConditions map[string][]corev1.NodeCondition
	// Overlays are the NodeOverlays, applied to each NodePool's catalog
	// by Problem, Consolidation and Drift ([Cluster.OverlayReport]).
	Overlays []overlay.Overlay
	// Buffers are the CapacityBuffers evaluated (package buffer), in input
	// order; [Cluster.Problem] adds the virtual pods of the ready ones to
	// the pending pods, after every other.
	Buffers []buffer.Result
	// PodGracePeriods are the terminationGracePeriodSeconds of the bound
	// pods that set one, keyed by "namespace/name".
	PodGracePeriods map[string]time.Duration
	Warnings        []string
	// nodeIDs are the names of the Nodes Load read, by spec.providerID,
	// for joining NodeClaims that do not name their node yet.
	nodeIDs map[string]string
	// origins are where Load read the objects of locatedKinds (NodePools,
	// EC2NodeClasses, Nodes…), so that errors found later name the document.
	origins map[ref]origin
}

// origin is where an object was read: its file, one-based document index
// and list item (-1 outside a list).
type origin struct {
	file        string
	index, item int
}

// locate wraps err, an *ObjectError about an object Load read, in a
// *DocumentError naming where it was read; other errors, and errors about
// objects the caller added, are returned as they are.
func (c *Cluster) locate(err error) error {
	var oe *ObjectError
	var de *DocumentError
	if err == nil || !errors.As(err, &oe) || errors.As(err, &de) {
		return err
	}
	o, ok := c.origins[ref{oe.Kind, oe.Namespace, oe.Name}]
	if !ok {
		return err
	}
	return &DocumentError{File: o.file, Index: o.index, Item: o.item, Err: err}
}

// object is one decoded manifest object and where it came from.
type object struct {
	file        string
	index, item int
	head        head
	raw         []byte // JSON
}

// head is the part of every object read before its kind is known.
type head struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name      string `json:"name"`
		Namespace string `json:"namespace"`
	} `json:"metadata"`
}

// where says where o was read: "a.yaml: document 2: items[3]"; "" for
// nil, an object given to FromObjects.
func (o *object) where() string {
	switch {
	case o == nil:
		return ""
	case o.item >= 0:
		return fmt.Sprintf("%s: document %d: items[%d]", o.file, o.index, o.item)
	}
	return fmt.Sprintf("%s: document %d", o.file, o.index)
}

// example names an object of o, name ("namespace/name"), and where it
// is: "shop/web (a.yaml: document 2)"; name alone for nil.
func (o *object) example(name string) string {
	if o == nil {
		return name
	}
	return name + " (" + o.where() + ")"
}

// errorf returns an *ObjectError about field of o ([objectError]).
func (o *object) errorf(field string, err error) *ObjectError {
	return objectError(o.head.Kind, o.head.Metadata.Namespace, o.head.Metadata.Name, field, err)
}

// objectError returns an *ObjectError about field of an object of kind,
// its namespace defaulted ("" for a cluster-scoped kind).
func objectError(kind, ns, name, field string, err error) *ObjectError {
	return &ObjectError{Kind: kind, Namespace: objectNamespace(kind, ns), Name: name, Field: field, Err: err}
}

// objectNamespace is the namespace of an object of kind: none for a
// cluster-scoped kind, else ns or "default".
func objectNamespace(kind, ns string) string {
	if clusterScoped[kind] {
		return ""
	}
	return namespace(ns)
}

// prefix is where o was read followed by ": ", or "" for nil.
func (o *object) prefix() string {
	if o == nil {
		return ""
	}
	return o.where() + ": "
}

// fail says where o was read in err: a *DocumentError; err itself for
// nil.
func (o *object) fail(err error) error {
	if o == nil {
		return err
	}
	return &DocumentError{File: o.file, Index: o.index, Item: o.item, Err: err}
}

// Load reads manifests: Pods, Nodes, DaemonSets, Deployments, ReplicaSets,
// StatefulSets, Jobs, PodDisruptionBudgets, PriorityClasses,
// PersistentVolumeClaims, PersistentVolumes, StorageClasses, LimitRanges
// (whose container defaults the expanded pods take), Karpenter
// NodePools and NodeClaims, and EC2NodeClasses, also inside kind List (as
// kubectl get -o yaml prints them) and typed lists (PodList, NodeList…,
// whose items may omit kind and apiVersion), and kubectl cluster-info dump
// output (its container logs are ignored).
// Workloads become replicas × template pending pods named name-0, name-1,
// …, less the pods of theirs already in the manifests (a Job's replicas
// are the pods its controller would still run, from its status and its
// finished pods); pods with
// spec.nodeName join that node's pods. Pods that take no room (Succeeded or
// Failed, or pending daemonset pods, which the DaemonSet accounts for),
// pods bound to a node not in the input, and objects of other kinds
// are skipped, in one warning line per kind and reason that counts them
// and names the first few.
//
// Load decodes every document into typed values and builds the Cluster
// from them as [FromObjects] does, kind by kind in the order of the fields
// of [Objects]. The first malformed document or invalid object stops Load
// with a *DocumentError naming the file and document: first those it
// finds decoding, in the order of the sources, then those it finds
// building, kind by kind. Sources that together hold
// no object (empty, comments only, empty lists) are an error wrapping
// [ErrNoObjects]. Load does not modify
// sources. The complexity is linear in the input. With a few hundred pods
// or more, it decodes and converts them on up to GOMAXPROCS goroutines;
// the result, errors and warnings included, is the same for any
// GOMAXPROCS.
func Load(sources ...Source) (Cluster, error) {
	var objs []object
	b := builder{check: newChecker()}
	for _, src := range sources {
		var err error
		if objs, err = split(objs, src, &b.check); err != nil {
			return Cluster{}, err
		}
	}
	if len(objs) == 0 {
		return Cluster{}, noObjects(sources)
	}
	predecode(objs, &b.in)
	b.expect = map[string]int{}
	for i := range objs {
		b.expect[objs[i].head.Kind]++
	}
	for i := range objs {
		if err := b.read(&objs[i]); err != nil {
			return Cluster{}, objs[i].fail(err)
		}
	}
	return b.build()
}

func noObjects(sources []Source) error {
	if len(sources) == 0 {
		return fmt.Errorf("%w: no sources", ErrNoObjects)
	}
	names := make([]string, len(sources))
	for i, src := range sources {
		names[i] = src.Name
	}
	return fmt.Errorf("%w in %s", ErrNoObjects, strings.Join(names, ", "))
}

// split appends the objects of a source, in order, to objs; c checks
// their heads.
func split(objs []object, src Source, c *checker) ([]object, error) {
	var docs []jsonDoc
	var err error
	if doc := largeJSON(src); doc == nil {
		docs, err = documents(src)
	} else {
		// Most large JSON sources are one document (a List): it is split
		// as one while another core checks that it is valid JSON, which
		// documents asks before taking it whole. When it is not, nothing
		// of this split is kept (what c learnt is a cache, and its strings
		// are interned: the same values), and it is read as documents
		// reads it. A valid document holds no container logs: no line of
		// it can start as their header does (stripLogs).
		valid := make(chan bool, 1)
		go func() { valid <- json.Valid(doc) }()
		more, oneErr := appendObject(objs, object{file: src.Name, index: 1, item: -1, raw: listOf(doc)}, head{}, c)
		if <-valid {
			return more, oneErr
		}
		docs, err = documents(src)
	}
	if err != nil {
		return objs, err
	}
	for i, doc := range docs {
		o := object{file: src.Name, index: i + 1, item: -1, raw: doc.raw}
		if doc.list != nil {
			objs, err = appendParts(objs, o, doc.list, c)
		} else {
			objs, err = appendObject(objs, o, head{}, c)
		}
		if err != nil {
			return objs, err
		}
	}
	return objs, nil
}

// largeJSONSize is the size from which split checks a JSON source's
// validity beside splitting it (largeJSON).
const largeJSONSize = 1 << 20

// largeJSON returns src's data, trimmed, when split may take it as one
// JSON document with more than one core: a large source that starts as
// JSON. Else nil.
func largeJSON(src Source) []byte {
	if len(src.Data) < largeJSONSize || runtime.GOMAXPROCS(0) < 2 {
		return nil
	}
	if t := bytes.TrimSpace(src.Data); startsJSON(t) {
		return t
	}
	return nil
}

// startsJSON reports whether t, trimmed, is read as JSON: an object or an
// array; else it is YAML.
func startsJSON(t []byte) bool { return len(t) > 0 && (t[0] == '{' || t[0] == '[') }

// documents returns the JSON of each document of src; a document that is
// empty (comments only, say) is kept as JSON null so indices stay right.
// The container logs that kubectl cluster-info dump writes between its
// lists are removed first ([stripLogs]).
func documents(src Source) ([]jsonDoc, error) {
	if !startsJSON(bytes.TrimSpace(src.Data)) {
		// Most YAML sources are cut in one pass that also finds no log
		// section, which stripLogs would otherwise search the source for.
		if docs, ok := yamlCut(src.Data); ok {
			return yamlJSON(src.Name, docs, nil)
		}
	}
	data := stripLogs(src.Data)
	trimmed := bytes.TrimSpace(data)
	if startsJSON(trimmed) {
		return jsonDocuments(src.Name, trimmed)
	}
	docs, readErr := yamlDocuments(data)
	return yamlJSON(src.Name, docs, readErr)
}

// yamlJSON converts docs, the YAML documents of the file name, to JSON;
// readErr is the error of reading the document after them.
func yamlJSON(name string, docs [][]byte, readErr error) ([]jsonDoc, error) {
	out := make([]jsonDoc, len(docs))
	for i, doc := range docs {
		d, err := yamlDoc(doc) // a duplicate key is an error
		if err != nil {
			return nil, &DocumentError{File: name, Index: i + 1, Item: -1, Err: fmt.Errorf("%w: %w", ErrMalformed, err)}
		}
		if d.list == nil {
			d.raw = listOf(d.raw)
		}
		out[i] = d
	}
	if readErr != nil { // after the documents read before it
		return nil, &DocumentError{File: name, Index: len(docs) + 1, Item: -1, Err: fmt.Errorf("%w: %w", ErrMalformed, readErr)}
	}
	return out, nil
}

func jsonDocuments(name string, data []byte) ([]jsonDoc, error) {
	if json.Valid(data) { // one document, the common case: read in place
		return []jsonDoc{{raw: listOf(data)}}, nil
	}
	return jsonStream(name, data)
}

// jsonStream returns the documents of data, a stream of JSON values, in
// order, each array as a List; a malformed one is a *DocumentError naming
// the file name and its index.
func jsonStream(name string, data []byte) ([]jsonDoc, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var docs []jsonDoc
	for {
		var raw json.RawMessage
		err := dec.Decode(&raw)
		if err == io.EOF {
			return docs, nil
		}
		if err != nil {
			return nil, &DocumentError{File: name, Index: len(docs) + 1, Item: -1, Err: fmt.Errorf("%w: %w", ErrMalformed, err)}
		}
		docs = append(docs, jsonDoc{raw: listOf(raw)})
	}
}

// Markers kubectl cluster-info dump writes around each container's logs
// when it prints to stdout: "==== START logs for container C of pod NS/P
// ====", the log lines, and the same line with END.
const (
	logStart = "==== START logs for container "
	logEnd   = "==== END logs for container "
)

// stripLogs returns data without the container log sections of a kubectl
// cluster-info dump: from each START line through the END line that names
// the same container and pod (or the end of data when it is missing). data
// is returned as is when it has none; it is never modified.
func stripLogs(data []byte) []byte {
	if !bytes.Contains(data, []byte(logStart)) {
		return data
	}
	var out []byte
	for len(data) > 0 {
		line, rest := cutLine(data)
		if !bytes.HasPrefix(line, []byte(logStart)) {
			out, data = append(out, line...), rest
			continue
		}
		end := append([]byte(logEnd), bytes.TrimRight(line[len(logStart):], "\r\n")...)
		for data = rest; len(data) > 0; {
			line, data = cutLine(data)
			if bytes.Equal(bytes.TrimRight(line, "\r\n"), end) {
				break
			}
		}
	}
	return out
}

// cutLine splits data after its first newline (or at its end).
func cutLine(data []byte) (line, rest []byte) {
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		return data[:i+1], data[i+1:]
	}
	return data, nil
}

// listOf returns doc, one JSON value, or, when it is an array, the array
// wrapped as a kind List.
func listOf(doc []byte) []byte {
	if !bytes.HasPrefix(doc, []byte("[")) {
		return doc
	}
	return append(append([]byte(`{"apiVersion":"v1","kind":"List","items":`), doc...), '}')
}

// appendObject reads the head of o with c and appends it, or its items when it
// is a List (a List inside a List reports its inner item index); empty
// documents are dropped. An item of a typed list (PodList, NodePoolList…)
// without kind or apiVersion takes the list's element kind and apiVersion,
// as the API server omits them in list responses; items of kind List must
// carry their own.
func appendObject(objs []object, o object, inherit head, c *checker) ([]object, error) {
	if bytes.Equal(bytes.TrimSpace(o.raw), []byte("null")) {
		return objs, nil
	}
	if err := c.readHead(o.raw, &o.head); err != nil {
		return objs, o.fail(fmt.Errorf("%w: %w", ErrMalformed, err))
	}
	if o.head.Kind == "" {
		o.head.Kind = inherit.Kind
	}
	if o.head.APIVersion == "" {
		o.head.APIVersion = inherit.APIVersion
	}
	if o.head.Kind == "" {
		return objs, o.fail(fmt.Errorf("%w: no kind", ErrMalformed))
	}
	if !isList(o.head.Kind) {
		return append(objs, o), nil
	}
	items, err := c.listItems(o.raw)
	if err != nil {
		return objs, o.fail(fmt.Errorf("%w: %w", ErrMalformed, err))
	}
	return appendList(objs, o, items, c)
}

// appendParts appends the objects of a list that yamlList converted in
// parts, as appendObject appends those of its whole JSON (p.whole()),
// without splicing and cutting that whole: the head is read from p.rest,
// which differs from the whole only in its items member (a marker list,
// where the whole has the items: both valid JSON), and the items are
// those yamlList cut. When that head is not a List's, or reading it
// fails, the whole is read as appendObject reads any document, so the
// object and the error are its.
func appendParts(objs []object, o object, p *listParts, c *checker) ([]object, error) {
	if c.readHead(p.rest, &o.head) == nil && isList(o.head.Kind) {
		if _, err := c.listItems(p.rest); err == nil {
			return appendList(objs, o, p.items, c)
		}
	}
	o.head, o.raw = head{}, p.whole()
	return appendObject(objs, o, head{}, c)
}

// appendList appends items, the items of the List o, as appendObject
// reads them.
func appendList(objs []object, o object, items [][]byte, c *checker) ([]object, error) {
	var err error
	var elem head
	if o.head.Kind != "List" {
		elem.Kind, elem.APIVersion = strings.TrimSuffix(o.head.Kind, "List"), o.head.APIVersion
	}
	objs = slices.Grow(objs, len(items))
	if len(items) >= headsMin && runtime.GOMAXPROCS(0) > 1 {
		return appendItems(objs, &o, items, elem)
	}
	for i, raw := range items {
		if objs, err = appendObject(objs, object{file: o.file, index: o.index, item: i, raw: raw}, elem, c); err != nil {
			return objs, err
		}
	}
	return objs, nil
}

// The items of a List of at least headsMin are read by appendItems,
// headsChunk at a time.
const (
	headsMin   = 1024
	headsChunk = 256
)

// appendItems appends the items of the List o as appendObject does one
// after the other, but reads their heads on up to GOMAXPROCS goroutines,
// each with its own checker: each run of items gives its objects and its
// first error apart, and the runs are joined in order up to the first
// error. A head's reading depends on nothing but its text (a checker's
// caches hold the same values on every goroutine), so the result is the
// same for any GOMAXPROCS.
func appendItems(objs []object, o *object, items [][]byte, elem head) ([]object, error) {
	type run struct {
		objs []object
		err  error
	}
	runs := make([]run, (len(items)+headsChunk-1)/headsChunk)
	parallel.Range(len(items), headsChunk, func() func(lo, hi int) {
		c := newChecker()
		return func(lo, hi int) {
			r := run{objs: make([]object, 0, hi-lo)}
			for i := lo; i < hi && r.err == nil; i++ {
				r.objs, r.err = appendObject(r.objs, object{file: o.file, index: o.index, item: i, raw: items[i]}, elem, &c)
			}
			runs[lo/headsChunk] = r
		}
	})
	for _, r := range runs {
		if objs = append(objs, r.objs...); r.err != nil {
			return objs, r.err
		}
	}
	return objs, nil
}

func isList(kind string) bool {
	return strings.HasSuffix(kind, "List")
}

// decode reads the object into v, a pointer to a zero value, as
// json.Unmarshal would, in one walk that checks it against v's type
// ([checker]): a value that cannot be decoded, a quantity that is not
// one, a field name that is not one (in the case it is written) and a
// duplicate field are *ObjectErrors naming the field; the unknown fields
// of Kubernetes' types are recorded for one warning. So it decodes as the
// API server's case-sensitive decoder would, where json.Unmarshal folds
// case and keeps the last duplicate.
func (b *builder) decode(o *object, v any) error {
	err := decodeWith(&b.check, o, v)
	if err == nil {
		b.unknown.add(o, &b.check.unknown)
	}
	return err
}

// decodeWith decodes o's JSON into v with c ([checker.decode]); c.unknown
// then holds the unknown fields the walk skipped.
func decodeWith(c *checker, o *object, v any) error {
	if err := c.decode(o.raw, v); err != nil {
		return wrapObject(o.errorf("", nil), err)
	}
	return nil
}

// checkMeta checks what Kubernetes requires of an object's name and
// namespace: a DNS-1123 subdomain and a DNS-1123 label. Labels are checked
// where they are read (pods, nodes, NodePools, NodeClaims and pod
// templates).
func checkMeta(kind, ns, name string) error {
	if err := dnsName(name, validation.IsDNS1123Subdomain); err != nil {
		return objectError(kind, ns, name, "metadata.name", err)
	}
	if ns != "" && !clusterScoped[kind] {
		if err := dnsName(ns, validation.IsDNS1123Label); err != nil {
			return objectError(kind, ns, name, "metadata.namespace", err)
		}
	}
	return nil
}

// dnsName checks a name with one of apimachinery's DNS-1123 rules.
func dnsName(name string, rule func(string) []string) error {
	if name == "" {
		return errors.New("is empty")
	}
	if msgs := rule(name); len(msgs) > 0 {
		return fmt.Errorf("%q is not valid: %s", abbreviate(name), strings.Join(msgs, "; "))
	}
	return nil
}

// handler decodes one object into the builder's snapshot.
type handler func(*builder, *object) error

// into returns the handler that decodes an object into a T kept in the
// slice of the snapshot that field picks: into the slice's next element,
// so that the value is not copied (and a pod predecode decoded there is
// taken as it is).
func into[T any](field func(*snapshot) *[]T) handler {
	return func(b *builder, o *object) error {
		v := next(b, o, field(&b.in))
		if err := b.decode(o, v); err != nil {
			return err
		}
		b.readAt(o)
		return nil
	}
}

// keep appends v, read at o, to dst, a slice of b's snapshot.
func keep[T any](b *builder, o *object, dst *[]T, v T) {
	*next(b, o, dst) = v
	b.readAt(o)
}

// readAt records o as where the object last kept was read.
func (b *builder) readAt(o *object) {
	if b.in.at == nil {
		b.in.at = map[string][]*object{}
	}
	b.in.at[o.head.Kind] = append(b.in.at[o.head.Kind], o)
}

// next extends dst, a slice of b's snapshot, by the element the object o
// is decoded into, and returns it. The slice holds every object of the
// kind (not a growing copy), so its elements past the end are zero or,
// for pods, predecode's.
func next[T any](b *builder, o *object, dst *[]T) *T {
	if *dst == nil {
		*dst = make([]T, 0, max(1, b.expect[o.head.Kind]))
	}
	if len(*dst) == cap(*dst) { // guarded: expect counts every object of the kind
		var zero T
		*dst = append(*dst, zero)
	} else {
		*dst = (*dst)[:len(*dst)+1]
	}
	return &(*dst)[len(*dst)-1]
}

// reader is how Load reads one kind: the API groups the kind belongs to
// (its current group first; older groups whose versions nodeplan no longer
// reads follow) and a handler per apiVersion it reads.
type reader struct {
	groups   []string
	versions map[string]handler
	// replaced, when set, says what to use instead of a kind nodeplan reads
	// in no version at all (a removed Karpenter API).
	replaced string
}

// clusterScoped lists the kinds nodeplan reads that have no namespace.
var clusterScoped = map[string]bool{"Node": true, "PriorityClass": true, "PersistentVolume": true, "StorageClass": true, KindNodePool: true, KindNodeClaim: true,
	KindEC2NodeClass: true, KindNodeOverlay: true, "Provisioner": true, "Machine": true, "AWSNodeTemplate": true, "CSINode": true}

// kinds lists the kinds nodeplan reads, by kind. An object whose kind is
// here but whose group is not is a different kind (Volcano's
// batch.volcano.sh Job, say) and is skipped.
var kinds = map[string]reader{
	"Pod":  {groups: []string{""}, versions: map[string]handler{"v1": readPod}},
	"Node": {groups: []string{""}, versions: map[string]handler{"v1": into(func(s *snapshot) *[]corev1.Node { return &s.Nodes })}},
	"DaemonSet": {groups: []string{"apps", "extensions"},
		versions: map[string]handler{"apps/v1": into(func(s *snapshot) *[]appsv1.DaemonSet { return &s.DaemonSets })}},
	"Deployment": {groups: []string{"apps", "extensions"},
		versions: map[string]handler{"apps/v1": into(func(s *snapshot) *[]appsv1.Deployment { return &s.Deployments })}},
	"ReplicaSet": {groups: []string{"apps", "extensions"},
		versions: map[string]handler{"apps/v1": into(func(s *snapshot) *[]appsv1.ReplicaSet { return &s.ReplicaSets })}},
	"StatefulSet": {groups: []string{"apps"},
		versions: map[string]handler{"apps/v1": into(func(s *snapshot) *[]appsv1.StatefulSet { return &s.StatefulSets })}},
	"Job": {groups: []string{"batch"}, versions: map[string]handler{"batch/v1": into(func(s *snapshot) *[]batchv1.Job { return &s.Jobs })}},
	"PodDisruptionBudget": {groups: []string{"policy"}, versions: map[string]handler{
		"policy/v1": into(func(s *snapshot) *[]policyv1.PodDisruptionBudget { return &s.PodDisruptionBudgets })}},
	"PriorityClass": {groups: []string{"scheduling.k8s.io"}, versions: map[string]handler{
		"scheduling.k8s.io/v1": into(func(s *snapshot) *[]schedulingv1.PriorityClass { return &s.PriorityClasses })}},
	"PersistentVolumeClaim": {groups: []string{""}, versions: map[string]handler{
		"v1": into(func(s *snapshot) *[]corev1.PersistentVolumeClaim { return &s.PersistentVolumeClaims })}},
	"PersistentVolume": {groups: []string{""}, versions: map[string]handler{
		"v1": into(func(s *snapshot) *[]corev1.PersistentVolume { return &s.PersistentVolumes })}},
	"LimitRange": {groups: []string{""}, versions: map[string]handler{
		"v1": into(func(s *snapshot) *[]corev1.LimitRange { return &s.LimitRanges })}},
	"StorageClass": {groups: []string{"storage.k8s.io"}, versions: map[string]handler{
		"storage.k8s.io/v1": into(func(s *snapshot) *[]storagev1.StorageClass { return &s.StorageClasses })}},
	"CSINode": {groups: []string{"storage.k8s.io"}, versions: map[string]handler{
		"storage.k8s.io/v1": into(func(s *snapshot) *[]storagev1.CSINode { return &s.CSINodes })}},
	KindNodePool: {groups: []string{karpenterGroup}, versions: map[string]handler{
		KarpenterAPIVersion: into(func(s *snapshot) *[]NodePool { return &s.pools }), karpenterV1beta1: (*builder).nodePoolV1beta1}},
	KindNodeClaim: {groups: []string{karpenterGroup}, versions: map[string]handler{
		KarpenterAPIVersion: nodeClaims, karpenterV1beta1: (*builder).nodeClaimV1beta1}},
	KindEC2NodeClass: {groups: []string{karpenterAWSGroup}, versions: map[string]handler{
		KarpenterAWSAPIVersion: into(func(s *snapshot) *[]EC2NodeClass { return &s.EC2NodeClasses }),
		karpenterAWSV1beta1:    (*builder).ec2NodeClassV1beta1}},
	KindNodeOverlay: {groups: []string{karpenterGroup}, versions: map[string]handler{
		KarpenterV1alpha1APIVersion: into(func(s *snapshot) *[]v1alpha1.NodeOverlay { return &s.NodeOverlays })}},
	"Provisioner":     {groups: []string{karpenterGroup}, replaced: "karpenter.sh/v1 NodePool"},
	"Machine":         {groups: []string{karpenterGroup}, replaced: "karpenter.sh/v1 NodeClaim"},
	"AWSNodeTemplate": {groups: []string{karpenterAWSGroup}, replaced: "karpenter.k8s.aws/v1 EC2NodeClass"},
	"PodTemplate": {groups: []string{""}, versions: map[string]handler{
		"v1": into(func(s *snapshot) *[]corev1.PodTemplate { return &s.PodTemplates })}},
	KindCapacityBuffer: {groups: []string{autoscalingv1beta1.Group}, versions: map[string]handler{
		CapacityBufferAPIVersion: into(func(s *snapshot) *[]autoscalingv1beta1.CapacityBuffer { return &s.CapacityBuffers })}},
}

// nodeClaims decodes a NodeClaim, of either version Load reads.
var nodeClaims = into(func(s *snapshot) *[]nodeClaimManifest { return &s.claims })

// accepted lists the apiVersions r reads, sorted, for messages.
func (r reader) accepted() string {
	vs := slices.Sorted(maps.Keys(r.versions))
	if len(vs) == 0 {
		return "none; use " + r.replaced
	}
	return strings.Join(vs, ", ")
}

// group returns the API group of an apiVersion ("" for the core group).
func group(apiVersion string) string {
	g, _, ok := strings.Cut(apiVersion, "/")
	if !ok {
		return ""
	}
	return g
}

// read hands o to the handler of its kind and version, which decodes it.
// A kind nodeplan reads at a version it does not read is an *ObjectError
// on the apiVersion field; any other kind is counted for the skipped-kinds
// warning.
func (b *builder) read(o *object) error {
	r, ok := kinds[o.head.Kind]
	if !ok || !slices.Contains(r.groups, group(o.head.APIVersion)) {
		b.skip(o)
		return nil
	}
	f, ok := r.versions[o.head.APIVersion]
	if !ok {
		return o.errorf("apiVersion", fmt.Errorf("%w: %q; nodeplan reads %s %s", ErrUnsupportedVersion, o.head.APIVersion, o.head.Kind, r.accepted()))
	}
	return f(b, o)
}

// identify checks the name and namespace of the i-th object of kind
// ([checkMeta]), read at o (nil from FromObjects), and that it is the only
// object of its kind, namespace and name.
func (b *builder) identify(kind, ns, name string, o *object, i int) error {
	if err := checkMeta(kind, ns, name); err != nil {
		return err
	}
	ns = objectNamespace(kind, ns)
	if kind == "Pod" && b.podFirst != nil { // found ahead, without a map of every pod
		if j := b.podFirst[i]; j >= 0 {
			return duplicate(kind, ns, name, seen{b.in.origin(kind, int(j)), int(j)})
		}
		return nil
	}
	id := ref{kind, ns, name}
	if first, ok := b.seen[id]; ok {
		return duplicate(kind, ns, name, first)
	}
	if b.seen == nil {
		b.seen = map[ref]seen{}
	}
	b.seen[id] = seen{o, i}
	return nil
}

// duplicate is the error of an object of the same kind, namespace and
// name as the one seen first.
func duplicate(kind, ns, name string, first seen) error {
	return objectError(kind, ns, name, "metadata.name", fmt.Errorf("%w: the same %s is at %s", ErrDuplicate, kind, first.at(kind)))
}

// firstOfName returns, for each pod, the index of the first pod before
// it of the same namespace and name, or -1: what identify would find in
// its map of pods seen, by sorting the pods' indices instead (most lists
// come sorted by namespace and name).
func firstOfName(pods []podFacts) []int32 {
	order := make([]int32, len(pods))
	for i := range order {
		order[i] = int32(i)
	}
	compare := func(a, b int32) int {
		return cmp.Or(strings.Compare(objectNamespace("Pod", pods[a].ns), objectNamespace("Pod", pods[b].ns)),
			strings.Compare(pods[a].name, pods[b].name))
	}
	slices.SortFunc(order, func(a, b int32) int { return cmp.Or(compare(a, b), cmp.Compare(a, b)) })
	first := make([]int32, len(pods))
	lead := int32(-1) // the first, by index, of the pods of one name, which sort first among them
	for _, i := range order {
		if first[i] = -1; lead >= 0 && compare(lead, i) == 0 {
			first[i] = lead
		} else {
			lead = i
		}
	}
	return first
}

// seen is an object identified: where Load read it (nil from FromObjects)
// and its index in its kind's slice.
type seen struct {
	o *object
	i int
}

// at says where the object is, for messages: "a.yaml: document 2",
// "Pods[3]".
func (s seen) at(kind string) string {
	if s.o == nil {
		return fmt.Sprintf("%s[%d]", plural(kind), s.i)
	}
	return s.o.where()
}

// plural is the name of kind's field of Objects.
func plural(kind string) string {
	if strings.HasSuffix(kind, "s") {
		return kind + "es"
	}
	return kind + "s"
}

// skip counts an object of a kind nodeplan does not read. A kind that
// shares its name with one nodeplan reads is qualified with its group
// (Job.batch.volcano.sh).
func (b *builder) skip(o *object) {
	label := o.head.Kind
	if _, ok := kinds[label]; ok {
		label += "." + group(o.head.APIVersion)
	}
	if b.skipped == nil {
		b.skipped = map[string]int{}
	}
	b.skipped[label]++
}

// summaries returns the warnings about the whole input: the objects
// converted from older Karpenter versions and the kinds skipped, one line
// each, counts by kind in name order.
func (b *builder) summaries() []string {
	var out []string
	if len(b.converted) > 0 {
		out = append(out, fmt.Sprintf("converted %s to v1 by Karpenter's v1 conversion rules: %s",
			planview.Count(sum(b.converted), "object"), counts(b.converted)))
	}
	if len(b.skipped) > 0 {
		kind := "kinds"
		if len(b.skipped) == 1 {
			kind = "a kind"
		}
		out = append(out, fmt.Sprintf("skipped %s of %s nodeplan does not read: %s", planview.Count(sum(b.skipped), "object"), kind, counts(b.skipped)))
	}
	return out
}

func sum(m map[string]int) int {
	n := 0
	for _, v := range m {
		n += v
	}
	return n
}

// counts formats "A ×2, B ×1" in key order.
func counts(m map[string]int) string {
	parts := make([]string, 0, len(m))
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s ×%d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}
