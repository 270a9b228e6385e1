package kube

import (
	"runtime"
	"slices"

	"github.com/nodeplan/nodeplan/internal/parallel"
	"github.com/nodeplan/nodeplan/packing"
	corev1 "k8s.io/api/core/v1"
)

// predecoded is what decoding a pod ahead of the builder, on another
// goroutine (predecode), found besides the pod's facts and conversion,
// which it took into the snapshot: what readPod would have found. obj is
// the object decoded.
type predecoded struct {
	obj     *object
	unknown unknownLog
	err     error
}

// Predecoding runs when there are at least predecodeMin pods, handing
// each worker convertChunk at a time.
const predecodeMin = 256

// predecode decodes and converts the pods among objs (most of a large
// manifest, and of the time its load takes) on up to GOMAXPROCS
// goroutines, each with its own checker, into the snapshot's pods and
// conversions, which it allocates: the k-th pod of objs into the k-th
// elements, where readPod keeps the k-th pod it reads. Each pod's decode
// and conversion depend on nothing but its own JSON, and the builder
// still takes them in order, with their errors and unknown fields, so
// Load's result is the same for any GOMAXPROCS. No typed pod is kept: each
// worker decodes into one of its own.
func predecode(objs []object, in *snapshot) {
	var pods []int
	for i := range objs {
		if h := objs[i].head; h.Kind == "Pod" && h.APIVersion == "v1" {
			pods = append(pods, i)
		}
	}
	if len(pods) < predecodeMin || runtime.GOMAXPROCS(0) < 2 { // one goroutine: readPod decodes them as it goes
		return
	}
	in.pods, in.converted = make([]podFacts, 0, len(pods)), make([]packing.Pod, 0, len(pods))
	in.pre = make([]predecoded, len(pods))
	facts, out := in.pods[:len(pods)], in.converted[:len(pods)]
	parallel.Range(len(pods), convertChunk, func() func(lo, hi int) {
		c := newChecker()
		var scratch corev1.Pod
		return func(lo, hi int) {
			for k := lo; k < hi; k++ {
				in.pre[k] = takeJSON(&c, &objs[pods[k]], &scratch, &facts[k], &out[k])
			}
		}
	})
}

// takeJSON decodes o, a Pod, with c into scratch, reset first
// (resetScratch), and takes its facts and conversion into facts and out
// (takePod); the pod's maps and slices, allocated by the decode, go with
// them.
func takeJSON(c *checker, o *object, scratch *corev1.Pod, facts *podFacts, out *packing.Pod) predecoded {
	resetScratch(scratch)
	p := predecoded{obj: o}
	if p.err = decodeWith(c, o, scratch); p.err == nil {
		p.unknown = unknownLog{n: c.unknown.n, paths: slices.Clone(c.unknown.paths)}
		*facts, *out = takePod(scratch, true)
	}
	return p
}

// readPod reads a v1 Pod into the snapshot's pods: predecode's work when
// it did it, else decoding it now.
func readPod(b *builder, o *object) error {
	k := len(b.in.pods)
	facts, out := next(b, o, &b.in.pods), next(b, o, &b.in.converted)
	var p predecoded
	if k < len(b.in.pre) && b.in.pre[k].obj == o {
		p, b.in.pre[k] = b.in.pre[k], predecoded{}
	} else { // not decoded ahead, or not into these elements (a guard): decode it here
		p = takeJSON(&b.check, o, &b.scratch, facts, out)
	}
	if p.err != nil {
		return p.err
	}
	b.unknown.add(o, &p.unknown)
	b.readAt(o)
	return nil
}

// resetScratch zeroes p, a pod decoded before, for the next decode, but
// keeps, emptied, what neither takePod's facts nor its conversion keep,
// so that a worker does not allocate them again for every pod: the array
// of the containers, each container's resource lists, ports and
// environment, the owner references and the status conditions. So a pod
// decoded into it finds those empty rather than nil, also when its JSON
// lacks them or has null: unlike a decode into a zero value, but every
// reader of them (takePod and what it calls) takes them by len and range
// alone.
func resetScratch(p *corev1.Pod) {
	cs := p.Spec.Containers[:cap(p.Spec.Containers)]
	for i := range cs {
		c := &cs[i]
		req, lim, ports, env := c.Resources.Requests, c.Resources.Limits, emptied(c.Ports), emptied(c.Env)
		clear(req)
		clear(lim)
		*c = corev1.Container{Ports: ports, Env: env}
		c.Resources.Requests, c.Resources.Limits = req, lim
	}
	refs, conditions := emptied(p.OwnerReferences), emptied(p.Status.Conditions)
	*p = corev1.Pod{}
	p.Spec.Containers, p.OwnerReferences, p.Status.Conditions = cs[:0], refs, conditions
}

// emptied returns s's array, cleared, as an empty slice.
func emptied[T any](s []T) []T {
	clear(s[:cap(s)])
	return s[:0]
}
