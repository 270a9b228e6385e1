package kube

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"sync"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	storagev1 "k8s.io/api/storage/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	autoscalingv1beta1 "sigs.k8s.io/karpenter/pkg/apis/autoscaling/v1beta1"
)

// Bounds on a quantity's text, checked before apimachinery's decoder sees
// it: apimachinery accepts any length and exponent, and spends time
// without bound on exponents such as 1e2147483648. No real resource needs
// more: nodeplan's own range is below 2^63 units with 10^-9 resolution.
const (
	maxQuantityLen = 64
	maxQuantityExp = 64
)

var (
	quantityType = reflect.TypeFor[resource.Quantity]()
	timeType     = reflect.TypeFor[metav1.Time]()
	unmarshaler  = reflect.TypeFor[json.Unmarshaler]()
)

// quantityStrings names the string fields, by struct type and JSON name,
// that hold quantities apimachinery parses later.
var quantityStrings = map[reflect.Type]string{
	reflect.TypeFor[EBSVolume](): "volumeSize",
}

// decoded are the types Load reads objects into: the head of every object,
// the items of a List and the type of each kind. Their plans are built
// once, on first use, and shared by every Load (sharedPlans); a test
// checks that the list is complete.
var decoded = []reflect.Type{
	reflect.TypeFor[head](), reflect.TypeFor[itemsOf](), reflect.TypeFor[corev1.Pod](), reflect.TypeFor[corev1.Node](),
	reflect.TypeFor[appsv1.DaemonSet](), reflect.TypeFor[appsv1.Deployment](), reflect.TypeFor[appsv1.ReplicaSet](),
	reflect.TypeFor[appsv1.StatefulSet](), reflect.TypeFor[batchv1.Job](), reflect.TypeFor[policyv1.PodDisruptionBudget](),
	reflect.TypeFor[schedulingv1.PriorityClass](), reflect.TypeFor[NodePool](), reflect.TypeFor[nodeClaimManifest](),
	reflect.TypeFor[EC2NodeClass](), reflect.TypeFor[nodePoolV1beta1](), reflect.TypeFor[ec2NodeClassV1beta1](),
	reflect.TypeFor[corev1.PersistentVolumeClaim](), reflect.TypeFor[corev1.PersistentVolume](), reflect.TypeFor[storagev1.StorageClass](),
	reflect.TypeFor[corev1.LimitRange](), reflect.TypeFor[storagev1.CSINode](),
	reflect.TypeFor[corev1.PodTemplate](), reflect.TypeFor[autoscalingv1beta1.CapacityBuffer](),
}

// sharedPlans are the plans of the decoded types and of the types they
// hold. Built once, they are never changed: a checker only reads them, so
// they are safe to share between concurrent Loads.
var sharedPlans = sync.OnceValue(func() map[reflect.Type]*plan {
	var c checker
	for _, t := range decoded {
		c.plan(t)
	}
	return c.plans
})

// checker walks a document's JSON alongside the Go type it is decoded
// into and reports, with its field path, the first value encoding/json
// would reject, and every quantity that is not one nodeplan reads: so
// every decode error names its field, and unbounded quantities are kept
// away from apimachinery. Its decode stores the values as it walks them,
// as json.Unmarshal would (decode.go); its check only walks.
//
// It also reads field names as the API server does, which encoding/json
// does not: case-sensitive (a name that matches a field only under case
// folding is an error, where json.Unmarshal would fold it), each once (a
// duplicate field or map key is an error, so none is silently replaced),
// and an unknown field is an error inside a member of [strictMembers],
// where nodeplan reads every field, else is recorded (Kubernetes' types,
// for one warning) or skipped (nodeplan's own structs, which read part of
// Karpenter's objects).
//
// The walk (walk.go) is one pass over the bytes, guided by a plan of each
// Go type built once by reflection: those of [decoded] in sharedPlans,
// from which [newChecker] starts, and those of other types in the
// checker. On valid input a check allocates only for the quantities and
// times it parses and the values of other types that decode themselves,
// and a walk builds a field path only when it reports an error. The zero
// checker is ready to use; it is not safe for concurrent use.
type checker struct {
	base  map[reflect.Type]*plan // plans built before, only read
	plans map[reflect.Type]*plan // of the types base lacks
	// path, seen and keys are reused by every walk.
	path    []segment
	seen    []uint64
	keys    []keyRef
	unknown unknownLog        // of the last check
	strs    map[string]string // the strings walks stored (stored)
}

// newChecker returns a checker that starts from sharedPlans.
func newChecker() checker { return checker{base: sharedPlans()} }

// check walks data, one JSON value, as a value of type t, storing
// nothing (Load decodes: [checker.decode]; tests check). The error is a
// *fieldError. The unknown fields of Kubernetes' types it skipped are in
// c.unknown until the next check.
func (c *checker) check(data []byte, t reflect.Type) error {
	return c.walk(data, t, reflect.Value{})
}

// walker starts a walk of data on the checker's buffers.
func (c *checker) walker(data []byte) walker {
	return walker{data: data, path: c.path[:0], seen: c.seen[:0], keys: c.keys[:0]}
}

// keep takes back the buffers of a walk for the next.
func (c *checker) keep(w *walker) {
	c.path, c.seen, c.keys = w.path, w.seen, w.keys
}

// readHead reads the head of data into h and checks it, in one pass that
// reads as check followed by json.Unmarshal would: a member matches a
// field by its exact name (a name that matches one only under case folding
// is an error, as is a duplicate member), null leaves a field as it is,
// and other members are skipped unread. The error is a *fieldError.
func (c *checker) readHead(data []byte, h *head) error {
	w := c.walker(data)
	err := w.structOf(c.plan(reflect.TypeFor[head]()), func(m *member) error {
		switch m.name {
		case "apiVersion":
			return w.text(m.plan, &h.APIVersion)
		case "kind":
			return w.text(m.plan, &h.Kind)
		}
		return w.structOf(m.plan, func(m *member) error { // metadata
			if m.name == "name" {
				return w.text(m.plan, &h.Metadata.Name)
			}
			return w.text(m.plan, &h.Metadata.Namespace)
		})
	})
	c.keep(&w)
	return err
}

// listItems returns the text of each element of the items of data, a
// List, in one pass that reads as json.Unmarshal into [itemsOf] would,
// with readHead's rules (no member named items but under case folding, no
// duplicate); the texts are slices of data. The error is a *fieldError.
func (c *checker) listItems(data []byte) ([][]byte, error) {
	w := c.walker(data)
	var items [][]byte
	err := w.structOf(c.plan(reflect.TypeFor[itemsOf]()), func(m *member) error {
		if w.space() != '[' {
			return w.value(m.plan, reflect.Value{}) // null, or the mismatch
		}
		w.i++
		return w.elements(func(raw []byte) { items = append(items, raw) })
	})
	c.keep(&w)
	return items, err
}

// elements reads the rest of an array whose '[' has been read, handing
// the text of each element to each, in order; an element's error names
// its index.
func (w *walker) elements(each func(raw []byte)) error {
	if w.space() == ']' {
		w.i++
		return nil
	}
	for i := 0; ; i++ {
		w.push(segment{index: i})
		raw, err := w.raw()
		if err != nil {
			return err
		}
		w.pop()
		each(raw)
		if done, err := w.next(']'); done || err != nil {
			return err
		}
	}
}

// itemsOf is the part of a List that listItems reads.
type itemsOf struct {
	Items []json.RawMessage `json:"items"`
}

// structOf reads the value at the read position as a struct of plan p,
// handing its members to read: null leaves it as it is, another value
// than an object is an error.
func (w *walker) structOf(p *plan, read func(m *member) error) error {
	switch w.space() {
	case 0:
		return w.malformed()
	case 'n':
		return w.literal("null")
	case '{':
		return w.fields(p, read)
	}
	return w.mismatch(p)
}

// text reads the value at the read position, a string of plan p, into
// dst; null leaves dst as it is.
func (w *walker) text(p *plan, dst *string) error {
	switch w.space() {
	case 'n':
		return w.literal("null")
	case '"':
		b, plain, err := w.str()
		if err == nil {
			*dst = keyText(b, plain)
		}
		return err
	}
	return w.mismatch(p)
}

// shape is what a plan expects of a JSON value.
type shape uint8

const (
	anyShape      shape = iota // an interface: any value
	stringShape                // a string
	boolShape                  // a bool
	intShape                   // a signed integer of plan.bits
	uintShape                  // an unsigned integer of plan.bits
	floatShape                 // a float of plan.bits
	bytesShape                 // a []byte: a base64 string
	structShape                // an object of known members
	mapShape                   // an object of any members
	arrayShape                 // a slice or an array
	quantityShape              // a resource.Quantity, by nodeplan's rules
	customShape                // a type that decodes itself (json.Unmarshaler)
	otherShape                 // nothing but null (a chan, a func, a complex)
)

// plan is how a value of one Go type is checked: its shape, and for
// containers the plans of their elements. own marks a struct of this
// package, or an unnamed struct declared in one ([plan.adopt]), which
// reads part of an object: its unknown fields are not recorded.
type plan struct {
	own   bool
	shape shape
	t     reflect.Type // the type, pointers removed, as messages name it
	bits  int          // of a number
	elem  *plan        // an array's elements, a map's values
	key   reflect.Type // a map's keys
	// list marks a map[string]resource.Quantity, a resource list whose
	// quantities are checked by resources.Parse's rules.
	list bool
	// fields are a struct's members by JSON name; order lists them in
	// struct order (member.idx), for the case-folded match.
	fields map[string]*member
	order  []*member
}

// member is a struct field as encoding/json decodes it.
type member struct {
	name  string
	idx   int   // in plan.order
	index []int // of the field, as reflect.Value.FieldByIndex takes it
	ascii bool  // name is ASCII
	plan  *plan
	// quantity marks a string field that holds a quantity (quantityStrings).
	quantity bool
	// strict marks a member whose every field nodeplan reads (strictMembers).
	strict bool
}

// plan returns the plan of t, building it (and those of the types it
// holds) on first use.
func (c *checker) plan(t reflect.Type) *plan {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if p, ok := c.plans[t]; ok {
		return p
	}
	if p, ok := c.base[t]; ok {
		return p
	}
	if c.plans == nil {
		c.plans = map[reflect.Type]*plan{}
	}
	p := &plan{t: t}
	c.plans[t] = p // before its elements: a type may hold itself
	c.build(p)
	return p
}

func (c *checker) build(p *plan) {
	t := p.t
	switch k := t.Kind(); {
	case t == quantityType:
		p.shape = quantityShape
	case reflect.PointerTo(t).Implements(unmarshaler):
		p.shape = customShape
	case k == reflect.Interface:
		p.shape = anyShape
	case k == reflect.String:
		p.shape = stringShape
	case k == reflect.Bool:
		p.shape = boolShape
	case isNumber(k):
		p.shape, p.bits = numberShape(k), t.Bits()
	case k == reflect.Struct:
		c.buildStruct(p)
	case k == reflect.Map:
		p.shape, p.key, p.elem = mapShape, t.Key(), c.plan(t.Elem())
		p.list = t.Key().Kind() == reflect.String && t.Elem() == quantityType
	case k == reflect.Slice && t.Elem().Kind() == reflect.Uint8:
		p.shape = bytesShape
	case k == reflect.Slice || k == reflect.Array:
		p.shape, p.elem = arrayShape, c.plan(t.Elem())
	default:
		p.shape = otherShape
	}
}

func isNumber(k reflect.Kind) bool {
	return k >= reflect.Int && k <= reflect.Float64
}

func numberShape(k reflect.Kind) shape {
	switch {
	case k >= reflect.Int && k <= reflect.Int64:
		return intShape
	case k >= reflect.Uint && k <= reflect.Uintptr:
		return uintShape
	}
	return floatShape
}

func (c *checker) buildStruct(p *plan) {
	p.shape, p.own = structShape, p.t.PkgPath() == ownPackage
	fields := map[string]reflect.StructField{}
	var names []string
	collect(p.t, nil, fields, &names, map[string]int{}, map[reflect.Type]bool{})
	p.fields = make(map[string]*member, len(names))
	q, holds := quantityStrings[p.t]
	for _, name := range names {
		if _, done := p.fields[name]; done {
			continue
		}
		f := fields[name]
		m := &member{name: name, idx: len(p.order), index: f.Index, ascii: isASCII(name), plan: c.plan(f.Type),
			quantity: holds && strings.EqualFold(q, name), strict: slices.Contains(strictMembers[p.t], name)}
		p.fields[name] = m
		p.order = append(p.order, m)
		if p.own {
			m.plan.adopt()
		}
	}
}

// adopt marks the unnamed structs p holds (directly or as the elements
// of slices, arrays, maps and pointers), and those they hold, as this
// package's: a struct declared inside one of this package's structs reads
// part of a Karpenter object too (a NodeClaim's status), so its unknown
// fields are not recorded. Named types keep their own package's rule.
func (p *plan) adopt() {
	for p.shape == arrayShape || p.shape == mapShape {
		p = p.elem
	}
	if p.shape != structShape || p.own || p.t.Name() != "" {
		return
	}
	p.own = true
	for _, m := range p.order {
		m.plan.adopt()
	}
}

// lookup finds the member named key exactly, as the API server matches
// names. A plain key costs no allocation.
func (p *plan) lookup(key []byte, plain bool) (*member, bool) {
	if !plain {
		m, ok := p.fields[keyText(key, plain)]
		return m, ok
	}
	m, ok := p.fields[string(key)]
	return m, ok
}

// folded finds the member encoding/json would decode key into under case
// folding (strings.EqualFold), when no member has its exact name.
// A plain key costs no allocation.
func (p *plan) folded(key []byte, plain bool) (*member, bool) {
	for _, m := range p.order {
		if m.ascii && plain && asciiFold(m.name, key) || !(m.ascii && plain) && strings.EqualFold(m.name, keyText(key, plain)) {
			return m, true
		}
	}
	return nil, false
}

// asciiFold is strings.EqualFold for an ASCII name and key.
func asciiFold(name string, key []byte) bool {
	if len(name) != len(key) {
		return false
	}
	for i := range len(key) {
		if lower(name[i]) != lower(key[i]) {
			return false
		}
	}
	return true
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// collect adds the JSON fields of struct t, embedded at the index path
// at (nil for the outer struct), to out, and their names to names in
// struct order, with embedded structs' fields promoted (the shallowest
// wins), as encoding/json does. A field's Index is its path from the
// outer struct.
func collect(t reflect.Type, at []int, out map[string]reflect.StructField, names *[]string, depth map[string]int, seen map[reflect.Type]bool) {
	if seen[t] {
		return
	}
	seen[t] = true
	d := len(at)
	for i := range t.NumField() {
		f := t.Field(i)
		f.Index = append(slices.Clip(at), i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			collect(ft, f.Index, out, names, depth, seen)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if dd, ok := depth[name]; ok && dd <= d {
			continue
		}
		if _, ok := out[name]; !ok {
			*names = append(*names, name)
		}
		out[name], depth[name] = f, d
	}
}
