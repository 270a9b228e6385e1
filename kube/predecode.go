package kube

import (
	"runtime"
	"slices"

	"github.com/nodeplan/nodeplan/internal/parallel"
	corev1 "k8s.io/api/core/v1"
)

// predecoded is an object's decode done ahead of the builder, on another
// goroutine (predecode): what builder.decode would have found, decoded
// into slot, the element of the snapshot's pods the builder keeps it in.
type predecoded struct {
	slot    *corev1.Pod
	unknown unknownLog
	err     error
}

// took reports whether the pod was decoded into v, v being its slot.
func (p *predecoded) took(v any) bool {
	pod, ok := v.(*corev1.Pod)
	return ok && pod == p.slot
}

// Predecoding runs when there are at least predecodeMin pods, handing
// each worker predecodeChunk at a time.
const (
	predecodeMin   = 256
	predecodeChunk = 64
)

// predecode decodes the pods among objs (most of a large manifest, and of
// the time its load takes) on up to GOMAXPROCS goroutines, each with its
// own checker, into the snapshot's pods, which it allocates: the k-th pod
// of objs into the k-th element, where the builder keeps the k-th pod it
// reads ([into]). Each object's decode depends on nothing but its own
// JSON, and the builder still takes them in order, with their errors and
// unknown fields, so Load's result is the same for any GOMAXPROCS.
func predecode(objs []object, in *snapshot) {
	var pods []int
	for i := range objs {
		if h := objs[i].head; h.Kind == "Pod" && h.APIVersion == "v1" {
			pods = append(pods, i)
		}
	}
	if len(pods) < predecodeMin || runtime.GOMAXPROCS(0) < 2 { // one goroutine: the builder decodes them as it goes
		return
	}
	in.Pods = make([]corev1.Pod, 0, len(pods))
	slots := in.Pods[:len(pods)]
	parallel.Range(len(pods), predecodeChunk, func() func(lo, hi int) {
		c := newChecker()
		return func(lo, hi int) {
			for k := lo; k < hi; k++ {
				objs[pods[k]].pre = decodeAhead(&c, &objs[pods[k]], &slots[k])
			}
		}
	})
}

func decodeAhead(c *checker, o *object, slot *corev1.Pod) *predecoded {
	p := &predecoded{slot: slot}
	p.err = decodeWith(c, o, slot)
	if p.err == nil {
		p.unknown = unknownLog{n: c.unknown.n, paths: slices.Clone(c.unknown.paths)}
	}
	return p
}
