package static

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
)

// Decide returns what each static pool of in does now: how many NodeClaims
// it creates (scale-up), which it deletes (scale-down) and which drifted
// nodes it replaces (StaticDrift), with a [Note] for each pool that does
// nothing or less than asked. See the package doc for the rules.
//
// The result does not depend on the order of in.Pools or in.Claims: pools
// come out by name, and every tie is broken by NodeClaim name. Decide
// does not modify in and is safe for concurrent use. Bad input is an
// *InputError (or a *disruption.BudgetError), joined, and an empty Result.
// The complexity is O(claims log claims + pods + pools × catalog lookup).
func Decide(in Input) (Result, error) {
	if err := validate(in); err != nil {
		return Result{}, err
	}
	pools := slices.SortedFunc(slices.Values(in.Pools), func(a, b Pool) int { return cmp.Compare(a.NodePool.Name, b.NodePool.Name) })
	claims := slices.SortedFunc(slices.Values(in.Claims), func(a, b Claim) int { return cmp.Compare(a.Name, b.Name) })
	out := Result{Pools: make([]Decision, 0, len(pools))}
	for i := range pools {
		d, err := decide(&pools[i], ofPool(claims, pools[i].NodePool.Name), in)
		if err != nil {
			return Result{}, err
		}
		out.Pools = append(out.Pools, d)
	}
	return out, nil
}

// ofPool returns the claims of the named pool, in the order of claims.
func ofPool(claims []Claim, pool string) []Claim {
	var out []Claim
	for _, c := range claims {
		if c.NodePool == pool {
			out = append(out, c)
		}
	}
	return out
}

// state is one pool's decision in the making.
type state struct {
	pool   *Pool
	claims []Claim
	in     Input
	d      Decision
	limit  int64 // limits.nodes, or MaxInt64
}

func decide(p *Pool, claims []Claim, in Input) (Decision, error) {
	s := &state{pool: p, claims: claims, in: in, limit: nodeLimit(p.NodePool),
		d: Decision{NodePool: p.NodePool.Name, Replicas: p.Replicas, Launch: launch(p.NodePool, in.Catalog)}}
	s.count()
	if err := s.drift(); err != nil {
		return Decision{}, err
	}
	if p.Deleting {
		s.note(PoolDeleting, "", "NodePool %s is being deleted: Karpenter scales it neither up nor down", p.NodePool.Name)
	} else {
		s.scaleUp()
		s.scaleDown()
	}
	if s.d.Create == 0 && len(s.d.Remove) == 0 && len(s.d.Replace) == 0 && len(s.d.Notes) == 0 {
		s.note(Steady, "", "NodePool %s has %d active of %d replicas: nothing to do", p.NodePool.Name, s.d.Active, p.Replicas)
	}
	if (s.d.Create > 0 || len(s.d.Replace) > 0) && !s.d.Launch.Known() {
		s.note(UnknownLaunch, "", "no offering of the catalog is compatible with NodePool %s: its new NodeClaims are not priced", p.NodePool.Name)
	}
	return s.d, nil
}

func (s *state) note(why Why, claim, format string, args ...any) {
	s.d.Notes = append(s.d.Notes, Note{Why: why, Claim: claim, Message: fmt.Sprintf(format, args...)})
}

// nodeLimit is the pool's limits.nodes, or MaxInt64 when it has none.
func nodeLimit(np packing.NodePool) int64 {
	if v, ok := np.Limits[packing.LimitNodes]; ok {
		return v
	}
	return math.MaxInt64
}

// launch is the pool's cheapest compatible offering in its catalog.
func launch(np packing.NodePool, cat *instancetypes.Catalog) Launch {
	if cat = np.CatalogOr(cat); cat == nil {
		return Launch{}
	}
	t, o, ok := cat.Cheapest(np.Requirements)
	if !ok {
		return Launch{}
	}
	return Launch{InstanceType: t.Name, Offering: o}
}

// count sorts the pool's claims as Karpenter's NodePoolState does:
// deleting, pending disruption, or else active.
func (s *state) count() {
	for _, c := range s.claims {
		switch {
		case deleting(c):
			s.d.Deleting++
		case c.PendingDisruption:
			s.d.PendingDisruption++
		default:
			s.d.Active++
		}
	}
}

func deleting(c Claim) bool { return c.Deleting || c.Node.MarkedForDeletion }

// headroom is how many more NodeClaims limits.nodes allows beside the
// pool's claims and extra ones already decided; never negative.
func (s *state) headroom(extra int) int64 {
	used := int64(s.d.Active + s.d.Deleting + s.d.PendingDisruption + extra)
	return max(0, s.limit-used)
}

// scaleUp creates replicas − active NodeClaims, within the room
// limits.nodes leaves beside the drift replacements, when active + pending
// disruption is short of replicas (Karpenter's static provisioning
// controller).
func (s *state) scaleUp() {
	p, d := s.pool, &s.d
	if int64(d.Active+d.PendingDisruption) >= p.Replicas {
		return
	}
	if p.NotReady != "" {
		s.note(NotReady, "", "NodePool %s is not Ready (%s): Karpenter creates none of its %d missing NodeClaims",
			p.NodePool.Name, p.NotReady, p.Replicas-int64(d.Active))
		return
	}
	want := p.Replicas - int64(d.Active)
	granted := min(want, s.headroom(len(d.Replace)))
	d.Create = int(granted)
	if granted < want {
		s.note(LimitReached, "", "NodePool %s's limits.nodes %d, with %d active, %d deleting, %d pending disruption and %d drift replacements, "+
			"leaves room for %d of %d missing NodeClaims", p.NodePool.Name, s.limit, d.Active, d.Deleting, d.PendingDisruption, len(d.Replace), granted, want)
	}
}
