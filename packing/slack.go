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
	// probe is the claim of the pivot of a range scan (see probeClaim).
	probe claim
}

type slackItem struct {
	slack int64 // cpu left
	mem   int64 // memory left, kept here so a scan rejects without a visit to c
	c     *claim
}

func lessSlack(a, b slackItem) bool {
	return cmp.Or(cmp.Compare(a.slack, b.slack), cmp.Compare(a.c.id, b.c.id)) < 0
}

func newSlackIndex() *slackIndex {
	return &slackIndex{t: btree.NewG(16, lessSlack), keys: map[*claim]slackItem{}, probe: probeClaim()}
}

func (s *slackIndex) insert(c *claim) {
	a := &c.pl.alloc[c.cheap]
	it := slackItem{slack: a.CPU - c.used.CPU, mem: a.Memory - c.used.Memory, c: c}
	s.keys[c] = it
	s.t.ReplaceOrInsert(it)
}

func (s *slackIndex) remove(c *claim) {
	if it, ok := s.keys[c]; ok {
		s.t.Delete(it)
		delete(s.keys, c)
	}
}

// reindexSlack indexes the run's open claims afresh: merge and compact
// change claims' room and ids without the index, which only placing and
// refill read.
func (r *run) reindexSlack() {
	r.slack = newSlackIndex()
	for _, c := range r.claims {
		if !c.gone && c.typed() {
			r.slack.insert(c)
		}
	}
}

// ascendFrom visits claims with at least cpu and mem left, least cpu room
// first, while visit returns true. Each claim passed over for memory counts
// against visits, which ascendFrom decrements.
func (s *slackIndex) ascendFrom(cpu, mem int64, visits *int, visit func(*claim) bool) {
	s.t.AscendGreaterOrEqual(slackItem{slack: cpu, c: &s.probe}, func(it slackItem) bool {
		if *visits--; *visits < 0 {
			return false
		}
		return it.mem < mem || visit(it.c)
	})
}

// descend visits claims, most room first, while visit returns true.
func (s *slackIndex) descend(visit func(*claim) bool) {
	s.t.Descend(func(it slackItem) bool { return visit(it.c) })
}
