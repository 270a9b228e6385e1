package packing

import (
	"cmp"

	"github.com/google/btree"
)

// slackIndex orders the open claims by the CPU their current cheapest type
// has left, so that "which claim holds this pod without growing" is a range
// scan rather than a pass over every claim.
type slackIndex struct {
	t    *btree.BTreeG[slackItem]
	keys map[*claim]slackItem
}

type slackItem struct {
	slack int64
	c     *claim
}

func lessSlack(a, b slackItem) bool {
	return cmp.Or(cmp.Compare(a.slack, b.slack), cmp.Compare(a.c.id, b.c.id)) < 0
}

func newSlackIndex() *slackIndex {
	return &slackIndex{t: btree.NewG(16, lessSlack), keys: map[*claim]slackItem{}}
}

func (s *slackIndex) insert(c *claim) {
	it := slackItem{slack: c.pl.alloc[c.cheap].CPU - c.used.CPU, c: c}
	s.keys[c] = it
	s.t.ReplaceOrInsert(it)
}

func (s *slackIndex) remove(c *claim) {
	if it, ok := s.keys[c]; ok {
		s.t.Delete(it)
		delete(s.keys, c)
	}
}

// ascendFrom visits claims with at least cpu left, least room first, while
// visit returns true.
func (s *slackIndex) ascendFrom(cpu int64, visit func(*claim) bool) {
	s.t.AscendGreaterOrEqual(slackItem{slack: cpu, c: &claim{id: -1}}, func(it slackItem) bool { return visit(it.c) })
}

// descend visits claims, most room first, while visit returns true.
func (s *slackIndex) descend(visit func(*claim) bool) {
	s.t.Descend(func(it slackItem) bool { return visit(it.c) })
}
