package packing

import (
	"cmp"
	"slices"
	"strings"
)

// sequence is the order a pass takes the pods in.
type sequence uint8

const (
	// seqFFD is first-fit decreasing as Karpenter orders it: cpu, then
	// memory (see ffdOrder).
	seqFFD sequence = iota
	// seqShares orders pods by the sum of their cpu and memory shares
	// (see [static.blend]), larger first: FFD by cpu alone places
	// memory-heavy pods last, where a size that weighs both pairs them
	// with cpu-heavy ones.
	seqShares
	// seqRandom is a restart's: FFD with each run of equal-size pods
	// shuffled and, half the time, then ordered by a random blend of the
	// two shares.
	seqRandom
	// seqShuffled is a small problem's shuffled pass (see
	// Options.shuffles): the pods in a uniformly random order (with
	// Options.PriorityOrder, within each priority, higher first), its ties
	// broken at random as a restart's.
	seqShuffled
)

// reorder puts queue, which holds the FFD order on entry, in the pass's
// sequence. The blend orders keep priority first when Options ask for it.
func (r *run) reorder(queue []int) {
	switch r.seq {
	case seqShares:
		r.sortByBlend(queue, 0.5)
	case seqShuffled:
		r.tie.Shuffle(len(queue), func(a, b int) { queue[a], queue[b] = queue[b], queue[a] })
		if r.s.opts.PriorityOrder {
			slices.SortStableFunc(queue, func(a, b int) int { return cmp.Compare(r.s.pods[b].pod.Priority, r.s.pods[a].pod.Priority) })
		}
	case seqRandom:
		r.shuffleEqual(queue)
		if r.tie.IntN(2) == 1 {
			r.sortByBlend(queue, r.tie.Float64())
			r.tied()
		}
	}
}

// sortByBlend sorts queue by w·cpu share + (1−w)·memory share, larger
// first, stably.
func (r *run) sortByBlend(queue []int, w float64) {
	key := make([]float64, len(r.s.pods))
	for _, i := range queue {
		key[i] = w*r.s.shares[i][0] + (1-w)*r.s.shares[i][1]
	}
	slices.SortStableFunc(queue, func(a, b int) int {
		c := 0
		if r.s.opts.PriorityOrder {
			c = cmp.Compare(r.s.pods[b].pod.Priority, r.s.pods[a].pod.Priority)
		}
		return cmp.Or(c, cmp.Compare(key[b], key[a]))
	})
}

// blend computes each pod's share of the pending pods' total cpu and
// memory requests, the sizes the blend orders weigh.
func (s *static) blend() {
	var cpu, mem float64
	for i := range s.pods {
		cpu += float64(s.pods[i].req.CPU)
		mem += float64(s.pods[i].req.Memory)
	}
	s.shares = make([][2]float64, len(s.pods))
	for i := range s.pods {
		s.shares[i] = [2]float64{float64(s.pods[i].req.CPU) / max(cpu, 1), float64(s.pods[i].req.Memory) / max(mem, 1)}
	}
}

// shuffleEqual shuffles each run of equal-size pods in the queue (as laid
// out by the FFD order).
func (r *run) shuffleEqual(queue []int) {
	for _, e := range r.s.equal {
		part := queue[e[0]:e[1]]
		r.tie.Shuffle(len(part), func(a, b int) { part[a], part[b] = part[b], part[a] })
		r.tied()
	}
}

// ffdOrder sorts pod indexes first-fit-decreasing: by size (see
// cmpSize), then creation time and uid ascending, as Karpenter's queue,
// then namespace, name and input position. The order is total, so an
// unstable sort gives the one order a stable sort would. It compares keys
// that hold what the order reads (ffdKey), so that it reads a pod again
// only for what a key leaves out: extended resources, and creation times
// time.Time.Compare orders otherwise than by their Unix instant (a
// monotonic clock reading, or an instant so far from 1970 that its Unix
// seconds overflow). (Times whose monotonic readings disagree with their
// wall clocks are not ordered by Compare at all: such a mix may come out
// otherwise than from a stable sort, still the same way every time.)
func ffdOrder(pods []Pod, byPriority bool) []int {
	short := make([]ffdShort, len(pods))
	for i := range pods {
		short[i] = ffdShort{head: headOf(&pods[i], byPriority), i: i}
	}
	// Sorting the heads puts the pods of each head together; only such a
	// run is then sorted on the whole key, its keys made in one place.
	slices.SortFunc(short, func(a, b ffdShort) int { return a.head.compare(&b.head) })
	idx := make([]int, len(pods))
	var run []ffdKey
	for lo := 0; lo < len(short); {
		hi := lo + 1
		for hi < len(short) && short[hi].head == short[lo].head {
			hi++
		}
		if hi-lo == 1 {
			idx[lo] = short[lo].i
			lo = hi
			continue
		}
		run = run[:0]
		for _, s := range short[lo:hi] {
			run = append(run, newFFDKey(&pods[s.i], s.i, byPriority))
		}
		slices.SortFunc(run, func(a, b ffdKey) int { return a.compare(&b, pods) })
		for k := range run {
			idx[lo+k] = run[k].i
		}
		lo = hi
	}
	return idx
}

// ffdShort is pod i's ffdHead, small so that the sort moves little.
type ffdShort struct {
	head ffdHead
	i    int
}

// ffdHead is what decides most comparisons of two ffdKeys: priority (when
// ordered by it, else 0), cpu and memory.
type ffdHead struct {
	cpu, mem int64
	prio     int32
}

// compare orders h before o when it is larger (cmpSize's first fields).
func (h *ffdHead) compare(o *ffdHead) int {
	switch {
	case h.prio != o.prio:
		return cmp.Compare(o.prio, h.prio)
	case h.cpu != o.cpu:
		return cmp.Compare(o.cpu, h.cpu)
	}
	return cmp.Compare(o.mem, h.mem)
}

// ffdKey is what ffdOrder compares of pod i: its priority (when ordered
// by it, else 0), its core requests, whether it requests extended
// resources, its creation time (the Unix instant, and whether Compare may
// order it otherwise: oddTime) and its uid, namespace and name.
type ffdKey struct {
	head                 ffdHead
	eph, slots           int64
	sec                  int64
	nsec                 int32
	ext, oddTime         bool
	uid, namespace, name string
	i                    int
}

// compare orders k before o when its pod comes first in FFD order: larger
// first (cmpSize), then older, then by uid, namespace, name and position.
func (k *ffdKey) compare(o *ffdKey, pods []Pod) int {
	if c := k.head.compare(&o.head); c != 0 {
		return c
	}
	switch {
	case k.eph != o.eph:
		return cmp.Compare(o.eph, k.eph)
	case k.slots != o.slots:
		return cmp.Compare(o.slots, k.slots)
	}
	if k.ext || o.ext {
		if c := pods[o.i].Requests.Compare(pods[k.i].Requests); c != 0 {
			return c
		}
	}
	switch {
	case k.oddTime || o.oddTime:
		if c := pods[k.i].CreationTime.Compare(pods[o.i].CreationTime); c != 0 {
			return c
		}
	case k.sec != o.sec:
		return cmp.Compare(k.sec, o.sec)
	case k.nsec != o.nsec:
		return cmp.Compare(k.nsec, o.nsec)
	}
	if c := strings.Compare(k.uid, o.uid); c != 0 {
		return c
	}
	if c := strings.Compare(k.namespace, o.namespace); c != 0 {
		return c
	}
	if c := strings.Compare(k.name, o.name); c != 0 {
		return c
	}
	return cmp.Compare(k.i, o.i)
}

// headOf is p's ffdHead.
func headOf(p *Pod, byPriority bool) ffdHead {
	h := ffdHead{cpu: p.Requests.CPU, mem: p.Requests.Memory}
	if byPriority {
		h.prio = p.Priority
	}
	return h
}

func newFFDKey(p *Pod, i int, byPriority bool) ffdKey {
	t := p.CreationTime
	k := ffdKey{head: headOf(p, byPriority), eph: p.Requests.EphemeralStorage, slots: p.Requests.Pods,
		sec: t.Unix(), nsec: int32(t.Nanosecond()), uid: p.UID, namespace: p.Namespace, name: p.Name, i: i}
	// Round(0) strips a monotonic reading; no real instant is 2^62 s from
	// 1970, only one whose Unix seconds overflowed.
	k.oddTime = t != t.Round(0) || k.sec > 1<<62 || k.sec < -1<<62
	k.ext = hasExtended(p.Requests)
	return k
}

// cmpSize orders pods larger first: priority (when asked), cpu, memory,
// then the other resources, all descending. Pods it finds equal are the
// ties a restart may reorder.
func cmpSize(pa, pb *Pod, byPriority bool) int {
	c := 0
	if byPriority {
		c = cmp.Compare(pb.Priority, pa.Priority)
	}
	return cmp.Or(c,
		cmp.Compare(pb.Requests.CPU, pa.Requests.CPU),
		cmp.Compare(pb.Requests.Memory, pa.Requests.Memory),
		pb.Requests.Compare(pa.Requests))
}

// sizeRuns returns the [start, end) bounds, in order, of the runs of two or
// more pods of equal size.
func sizeRuns(pods []Pod, order []int, byPriority bool) [][2]int {
	var runs [][2]int
	for i := 0; i < len(order); {
		j := i + 1
		for j < len(order) && cmpSize(&pods[order[i]], &pods[order[j]], byPriority) == 0 {
			j++
		}
		if j-i > 1 {
			runs = append(runs, [2]int{i, j})
		}
		i = j
	}
	return runs
}
