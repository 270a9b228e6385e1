package problemgen

import (
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/requirements"
	"github.com/nodeplan/nodeplan/resources"
)

// hostileStrings are strings a real object may carry that nodeplan must
// reject or handle, never panic on: empty, spaces, '/', ':', '"', '=',
// unicode, control bytes, invalid UTF-8, leading and trailing punctuation,
// upper case, and lengths on both sides of Kubernetes' limits (63 for a
// name or value, 253 for a key prefix, whose parts may exceed 63). Some
// are valid label keys or values, so that they also reach the solver.
var hostileStrings = []string{
	"", " ", "a b", " lead", "trail ", "a\tb", "a\nb", "\x00", "\xff", "a\xffb",
	"/", "a/", "/a", "a/b", "a/b/c", "pool/0", "a:b", `"a:b"`, `rack="a:b"`, "a=b", "bad value!",
	"nämé-0", "日本", "a\u200bb", "-a", "a-", ".a", "a.", "_a", "a..b", "UPPER", "Ex.com/a",
	"a", "0", "a.b_c-d", "example.com/x", "kubernetes.io/hostname",
	strings.Repeat("a", 63), strings.Repeat("a", 64), strings.Repeat("a", 300),
	strings.Repeat("p", 64) + ".com/k", strings.Repeat("p", 253) + "/k", strings.Repeat("p", 254) + "/k",
}

// HostileStrings returns, in a fixed order, strings that must be rejected
// or handled by every entry point, never make one panic (see
// hostileStrings). The caller owns the slice.
func HostileStrings() []string { return slices.Clone(hostileStrings) }

// extremeInts are the int64 values where arithmetic overflows or bounds
// bite: the int64 limits, the validation bounds and their neighbours.
var extremeInts = []int64{math.MinInt64, math.MinInt64 + 1, -1 << 62, -1, 0, 1,
	resources.MaxAmount, resources.MaxAmount + 1, packing.MaxLimit, packing.MaxLimit + 1,
	int64(instancetypes.MaxValidPrice), int64(instancetypes.MaxValidPrice) + 1,
	1 << 62, math.MaxInt64 - 1, math.MaxInt64}

// ExtremeInts returns the int64 values at and around overflow and the
// validation bounds. The caller owns the slice.
func ExtremeInts() []int64 { return slices.Clone(extremeInts) }

// hostility puts a hostile string or an extreme number in one field of p,
// which it may modify in place (the caller owns p); ok is false when p has
// no such field. Unlike a corruption, the result may be valid.
type hostility func(g *gen, p *packing.Problem) bool

var hostilities = []hostility{
	hostilePodLabel, hostileMatchLabelKeys, hostileNodeLabelSpread, hostilePoolName, hostilePoolLabel,
	hostileNodeField, hostileTaint, hostileToleration, hostileTopologyKey, hostileProtocol,
	extremeRequest, extremeNode, extremeLimit, extremeDaemonSet,
}

// hostile applies a random hostility that fits p; the last ones always fit.
func (g *gen) hostile(p *packing.Problem) {
	for i := g.intn(len(hostilities)); ; i = (i + 1) % len(hostilities) {
		if hostilities[i](g, p) {
			return
		}
	}
}

func (g *gen) hostileString() string { return pick(g, hostileStrings) }

func (g *gen) extreme() int64 { return pick(g, extremeInts) }

// hostilePodLabel gives a pod a hostile label key or value.
func hostilePodLabel(g *gen, p *packing.Problem) bool {
	pod := g.somePod(p)
	if pod == nil {
		return false
	}
	pod.Labels = cloneLabels(pod.Labels)
	if g.chance(1, 2) {
		pod.Labels[g.hostileString()] = "x"
	} else {
		pod.Labels[LabelApp] = g.hostileString()
	}
	return true
}

// hostileMatchLabelKeys spreads a pod by zone with matchLabelKeys naming a
// label whose value is hostile (or a hostile key).
func hostileMatchLabelKeys(g *gen, p *packing.Problem) bool {
	pod := g.somePod(p)
	if pod == nil {
		return false
	}
	key := LabelApp
	if g.chance(1, 3) {
		key = g.hostileString()
	}
	pod.Labels = cloneLabels(pod.Labels)
	pod.Labels[key] = g.hostileString()
	pod.TopologySpread = withSpread(pod.TopologySpread, packing.TopologySpread{
		TopologyKey: requirements.LabelZone, MaxSkew: 1, MatchLabelKeys: []string{key}})
	return true
}

// hostileNodeLabelSpread labels a node rack=<hostile> and spreads a pod
// over rack, as the rack="a:b" that crashed a solver goroutine.
func hostileNodeLabelSpread(g *gen, p *packing.Problem) bool {
	n := g.someNode(p)
	if n == nil {
		return false
	}
	n.Labels = cloneLabels(n.Labels)
	n.Labels["rack"] = g.hostileString()
	if pod := g.somePod(p); pod != nil {
		pod.TopologySpread = withSpread(pod.TopologySpread, packing.TopologySpread{
			TopologyKey: "rack", MaxSkew: 1, Selector: requirements.FromLabels(map[string]string{LabelApp: pod.Labels[LabelApp]})})
	}
	return true
}

// hostilePoolName renames a pool, and the nodes it owns.
func hostilePoolName(g *gen, p *packing.Problem) bool {
	np := g.somePool(p)
	if np == nil {
		return false
	}
	old, name := np.Name, g.hostileString()
	np.Name = name
	for i := range p.Nodes {
		if p.Nodes[i].NodePool == old {
			p.Nodes[i].NodePool = name
			p.Nodes[i].Labels = cloneLabels(p.Nodes[i].Labels)
			delete(p.Nodes[i].Labels, requirements.LabelNodePool)
		}
	}
	return true
}

func hostilePoolLabel(g *gen, p *packing.Problem) bool {
	np := g.somePool(p)
	if np == nil {
		return false
	}
	np.Labels = cloneLabels(np.Labels)
	np.Labels[pick(g, []string{"team", g.hostileString()})] = g.hostileString()
	return true
}

// hostileNodeField puts a hostile string in a node field that stands for
// a label, and drops the label so that the field counts.
func hostileNodeField(g *gen, p *packing.Problem) bool {
	n := g.someNode(p)
	if n == nil {
		return false
	}
	n.Labels = cloneLabels(n.Labels)
	s := g.hostileString()
	switch g.intn(5) {
	case 0:
		n.Name = s
		delete(n.Labels, requirements.LabelHostname)
	case 1:
		n.Zone = s
		delete(n.Labels, requirements.LabelZone)
	case 2:
		n.InstanceType = s
		delete(n.Labels, requirements.LabelInstanceType)
	case 3:
		n.NodePool = s
		delete(n.Labels, requirements.LabelNodePool)
	default:
		n.CapacityType = instancetypes.CapacityType(g.intn(256))
		delete(n.Labels, requirements.LabelCapacityType)
	}
	return true
}

// hostileTaint adds a taint with a hostile key or value to a pool or node.
func hostileTaint(g *gen, p *packing.Problem) bool {
	t := requirements.Taint{Key: TaintDedicated, Value: g.hostileString(), Effect: requirements.Effect(g.intn(5))}
	if g.chance(1, 2) {
		t.Key, t.Value = g.hostileString(), "x"
	}
	if np := g.somePool(p); np != nil && g.chance(1, 2) {
		np.Taints = append(slices.Clip(np.Taints), t)
		return true
	}
	if n := g.someNode(p); n != nil {
		n.Taints = append(slices.Clip(n.Taints), t)
		return true
	}
	return false
}

// hostileToleration gives a pod a toleration with hostile strings or an
// operator or effect out of range.
func hostileToleration(g *gen, p *packing.Problem) bool {
	pod := g.somePod(p)
	if pod == nil {
		return false
	}
	t := requirements.Toleration{Key: g.hostileString(), Value: g.hostileString(),
		Operator: requirements.TolerationOperator(g.intn(3)), Effect: requirements.Effect(g.intn(5))}
	pod.Tolerations = append(slices.Clip(pod.Tolerations), t)
	return true
}

// hostileTopologyKey gives a pod a spread, affinity or anti-affinity term
// over a hostile key.
func hostileTopologyKey(g *gen, p *packing.Problem) bool {
	pod := g.somePod(p)
	if pod == nil {
		return false
	}
	key := g.hostileString()
	switch g.intn(3) {
	case 0:
		pod.TopologySpread = withSpread(pod.TopologySpread, packing.TopologySpread{TopologyKey: key, MaxSkew: 1})
	case 1:
		pod.Affinity = append(slices.Clip(pod.Affinity), packing.PodAffinityTerm{TopologyKey: key})
	default:
		pod.AntiAffinity = append(slices.Clip(pod.AntiAffinity), packing.PodAffinityTerm{TopologyKey: key})
	}
	return true
}

func hostileProtocol(g *gen, p *packing.Problem) bool {
	pod := g.somePod(p)
	if pod == nil {
		return false
	}
	pod.HostPorts = append(slices.Clip(pod.HostPorts), packing.HostPort{Port: 8080, Protocol: g.hostileString()})
	return true
}

// extremeRequest sets one dimension of a pod's requests to an extreme.
func extremeRequest(g *gen, p *packing.Problem) bool {
	pod := g.somePod(p)
	if pod == nil {
		return false
	}
	pod.Requests = pod.Requests.With(pick(g, extremeNames), g.extreme())
	return true
}

var extremeNames = []resources.Name{resources.CPU, resources.Memory, resources.EphemeralStorage, resources.Pods, resources.GPU}

// extremeNode sets a node's price or one dimension of its allocatable to
// an extreme.
func extremeNode(g *gen, p *packing.Problem) bool {
	n := g.someNode(p)
	if n == nil {
		return false
	}
	if g.chance(1, 2) {
		n.Price = instancetypes.Price(g.extreme())
	} else {
		n.Allocatable = n.Allocatable.With(pick(g, extremeNames), g.extreme())
	}
	return true
}

func extremeLimit(g *gen, p *packing.Problem) bool {
	np := g.somePool(p)
	if np == nil {
		return false
	}
	limits := maps.Clone(np.Limits)
	if limits == nil {
		limits = map[resources.Name]int64{}
	}
	limits[pick(g, append([]resources.Name{packing.LimitNodes}, extremeNames...))] = g.extreme()
	np.Limits = limits
	return true
}

// extremeDaemonSet adds a daemonset with an extreme request; it always
// applies.
func extremeDaemonSet(g *gen, p *packing.Problem) bool {
	ds := packing.DaemonSet{Name: "extreme", Requests: resources.List{}.With(pick(g, extremeNames), g.extreme())}
	p.DaemonSets = append(slices.Clip(p.DaemonSets), ds)
	return true
}

// somePool returns a random pool of p, or nil when it has none.
func (g *gen) somePool(p *packing.Problem) *packing.NodePool {
	if len(p.NodePools) == 0 {
		return nil
	}
	return &p.NodePools[g.intn(len(p.NodePools))]
}

// someNode returns a random node of p, or nil when it has none.
func (g *gen) someNode(p *packing.Problem) *packing.Node {
	if len(p.Nodes) == 0 {
		return nil
	}
	return &p.Nodes[g.intn(len(p.Nodes))]
}

// cloneLabels copies labels (nil gives an empty map), since generated
// objects may share their maps.
func cloneLabels(l map[string]string) map[string]string {
	if l == nil {
		return map[string]string{}
	}
	return maps.Clone(l)
}
