package kube

import (
	"runtime"
	"slices"

	"github.com/nodeplan/nodeplan/internal/parallel"
	corev1 "k8s.io/api/core/v1"
)

// predecoded is an object's decode done ahead of the builder, on another
// goroutine (predecode): what builder.decode would have found.
type predecoded struct {
	v       corev1.Pod
	unknown unknownLog
	err     error
}

// took stores the decoded value in v, when v is a value of its type, and
// reports whether it did.
func (p *predecoded) took(v any) bool {
	pod, ok := v.(*corev1.Pod)
	if ok && p.err == nil {
		*pod = p.v
	}
	return ok
}

// Predecoding runs when there are at least predecodeMin pods, handing
// each worker predecodeChunk at a time.
const (
	predecodeMin   = 256
	predecodeChunk = 64
)

// predecode decodes the pods among objs (most of a large manifest, and of
// the time its load takes) on up to GOMAXPROCS goroutines, each with its
// own checker. Each object's decode depends on nothing but its own JSON,
// and the builder still takes them in order, with their errors and
// unknown fields, so Load's result is the same for any GOMAXPROCS.
func predecode(objs []object) {
	var pods []int
	for i := range objs {
		if h := objs[i].head; h.Kind == "Pod" && h.APIVersion == "v1" {
			pods = append(pods, i)
		}
	}
	if len(pods) < predecodeMin || runtime.GOMAXPROCS(0) < 2 { // one goroutine: the builder decodes them as it goes
		return
	}
	parallel.Range(len(pods), predecodeChunk, func() func(lo, hi int) {
		c := newChecker()
		return func(lo, hi int) {
			for _, i := range pods[lo:hi] {
				objs[i].pre = decodeAhead(&c, &objs[i])
			}
		}
	})
}

func decodeAhead(c *checker, o *object) *predecoded {
	p := &predecoded{}
	p.err = decodeWith(c, o, &p.v)
	if p.err == nil {
		p.unknown = unknownLog{n: c.unknown.n, paths: slices.Clone(c.unknown.paths)}
	}
	return p
}
