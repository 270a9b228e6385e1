package packing

import (
	"cmp"
	"math"
	"slices"
	"sort"
)

// slackIndex orders the open claims by the CPU their current cheapest type
// has left, so that "which claim holds this pod without growing" is a range
// scan rather than a pass over every claim. The claims are kept in blocks
// of consecutive items, each with the most memory any of its claims has
// left, so that a scan passes over a block of claims short of memory in
// one step; it still counts each claim against its visits, so the claims
// it visits are exactly those of an item-by-item scan.
type slackIndex struct {
	blocks []*slackBlock // in order, none empty
	// probe is the claim of the pivot of a range scan (see probeClaim).
	probe claim
}

// slackEntry is where a claim is in a slack index: the index and the item
// it was inserted as; the zero slackEntry is in none.
type slackEntry struct {
	index *slackIndex
	item  slackItem
}

type slackItem struct {
	slack int64 // cpu left
	mem   int64 // memory left, kept here so a scan rejects without a visit to c
	c     *claim
}

// slackBlock is a run of consecutive items and the most memory left of any.
type slackBlock struct {
	items  []slackItem
	maxMem int64
}

// slackBlockMax is the length at which a block splits in two.
const slackBlockMax = 128

func lessSlack(a, b slackItem) bool {
	return cmp.Or(cmp.Compare(a.slack, b.slack), cmp.Compare(a.c.id, b.c.id)) < 0
}

func newSlackIndex() *slackIndex {
	return &slackIndex{probe: probeClaim()}
}

// block returns the index of the last block whose first item is not after
// it (0 when it precedes every block), or -1 when there is no block.
func (s *slackIndex) block(it slackItem) int {
	i := sort.Search(len(s.blocks), func(i int) bool { return lessSlack(it, s.blocks[i].items[0]) })
	return max(i-1, min(0, len(s.blocks)-1))
}

// position is the index of the first item of b not before it.
func (b *slackBlock) position(it slackItem) int {
	return sort.Search(len(b.items), func(j int) bool { return !lessSlack(b.items[j], it) })
}

func (s *slackIndex) insert(c *claim) {
	a := &c.pl.alloc[c.cheap]
	it := slackItem{slack: a.CPU - c.used.CPU, mem: a.Memory - c.used.Memory, c: c}
	c.slack = slackEntry{index: s, item: it}
	bi := s.block(it)
	if bi < 0 {
		s.blocks = append(s.blocks, &slackBlock{items: []slackItem{it}, maxMem: it.mem})
		return
	}
	b := s.blocks[bi]
	b.items = slices.Insert(b.items, b.position(it), it)
	b.maxMem = max(b.maxMem, it.mem)
	if len(b.items) >= slackBlockMax {
		half := len(b.items) / 2
		next := &slackBlock{items: slices.Clone(b.items[half:])}
		b.items = slices.Clip(b.items[:half])
		b.maxMem, next.maxMem = maxMem(b.items), maxMem(next.items)
		s.blocks = slices.Insert(s.blocks, bi+1, next)
	}
}

func (s *slackIndex) remove(c *claim) {
	if c.slack.index != s {
		return
	}
	it := c.slack.item
	c.slack = slackEntry{}
	bi := s.block(it)
	b := s.blocks[bi]
	j := b.position(it)
	if j == len(b.items) || b.items[j].c != c {
		// c's id changed since it was indexed (merge and compact renumber
		// claims, and reindexSlack indexes them afresh before a scan): find
		// it by its pointer.
		bi, j = s.find(c)
		b = s.blocks[bi]
	}
	b.items = slices.Delete(b.items, j, j+1)
	switch {
	case len(b.items) == 0:
		s.blocks = slices.Delete(s.blocks, bi, bi+1)
	case it.mem == b.maxMem:
		b.maxMem = maxMem(b.items)
	}
}

// find returns the block and position of c's item, by a pass over every
// item: O(claims), for a claim whose order changed under the index.
func (s *slackIndex) find(c *claim) (int, int) {
	for bi, b := range s.blocks {
		for j := range b.items {
			if b.items[j].c == c {
				return bi, j
			}
		}
	}
	panic("packing: a claim of the slack index is in no block")
}

func maxMem(items []slackItem) int64 {
	m := int64(math.MinInt64)
	for _, it := range items {
		m = max(m, it.mem)
	}
	return m
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
// against visits, which ascendFrom decrements; the scan stops, with
// visits at -1, at the first claim it has no visit left for.
func (s *slackIndex) ascendFrom(cpu, mem int64, visits *int, visit func(*claim) bool) {
	pivot := slackItem{slack: cpu, c: &s.probe}
	bi := s.block(pivot)
	if bi < 0 {
		return
	}
	for pos := s.blocks[bi].position(pivot); bi < len(s.blocks); bi, pos = bi+1, 0 {
		b := s.blocks[bi]
		if pos == 0 && b.maxMem < mem { // every claim of the block is passed over
			if *visits -= len(b.items); *visits < 0 {
				*visits = -1
				return
			}
			continue
		}
		for _, it := range b.items[pos:] {
			if *visits--; *visits < 0 {
				return
			}
			if it.mem >= mem && !visit(it.c) {
				return
			}
		}
	}
}

// descend visits claims, most room first, while visit returns true.
func (s *slackIndex) descend(visit func(*claim) bool) {
	for bi := len(s.blocks) - 1; bi >= 0; bi-- {
		items := s.blocks[bi].items
		for j := len(items) - 1; j >= 0; j-- {
			if !visit(items[j].c) {
				return
			}
		}
	}
}
