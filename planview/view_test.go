package planview

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/nodeplan/nodeplan/instancetypes"
	"github.com/nodeplan/nodeplan/packing"
	"github.com/nodeplan/nodeplan/resources"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func unsched(pod, owner string, kind packing.ReasonKind, pool, msg string) Unschedulable {
	ns, _, _ := strings.Cut(pod, "/")
	return Unschedulable{Pod: pod, Namespace: ns, Owner: owner, Reason: packing.Reason{Kind: kind, NodePool: pool, Message: msg}}
}

func TestGroups(t *testing.T) {
	short := func(pod string) string {
		return "no instance type in NodePool general has 8 cpu; pod " + pod + " is short"
	}
	tests := []struct {
		name string
		in   []Unschedulable
		want []string // "label ×n | kind | pool | message | pods"
	}{
		{"replicas with the same reason are one group, the pod named by pattern",
			[]Unschedulable{
				unsched("shop/web-0", "Deployment/web", packing.Insufficient, "general", short("shop/web-0")),
				unsched("shop/web-1", "Deployment/web", packing.Insufficient, "general", short("shop/web-1")),
			},
			[]string{"Deployment shop/web ×2 | Insufficient | general | no instance type in NodePool general has 8 cpu; pod shop/web-* is short | shop/web-0,shop/web-1"}},
		{"names without the owner's prefix keep the first pod's message",
			[]Unschedulable{
				unsched("shop/a", "ReplicaSet/web-5d8f", packing.Topology, "general", "pod shop/a: no room"),
				unsched("shop/b", "ReplicaSet/web-5d8f", packing.Topology, "general", "pod shop/b: no room"),
			},
			[]string{"ReplicaSet shop/web-5d8f ×2 | Topology | general | pod shop/a: no room | shop/a,shop/b"}},
		{"another NodePool, reason kind, namespace or message is another group",
			[]Unschedulable{
				unsched("shop/web-0", "Deployment/web", packing.Insufficient, "general", "m"),
				unsched("shop/web-1", "Deployment/web", packing.Insufficient, "spot", "m"),
				unsched("shop/web-2", "Deployment/web", packing.LimitExceeded, "general", "m"),
				unsched("dev/web-3", "Deployment/web", packing.Insufficient, "general", "m"),
				unsched("shop/web-4", "Deployment/web", packing.Insufficient, "general", "other"),
			},
			[]string{
				"Deployment shop/web ×1 | Insufficient | general | m | shop/web-0",
				"Deployment shop/web ×1 | Insufficient | spot | m | shop/web-1",
				"Deployment shop/web ×1 | LimitExceeded | general | m | shop/web-2",
				"Deployment dev/web ×1 | Insufficient | general | m | dev/web-3",
				"Deployment shop/web ×1 | Insufficient | general | other | shop/web-4",
			}},
		{"pods without an owner stand alone",
			[]Unschedulable{
				unsched("batch/a", "", packing.Insufficient, "general", "m"),
				unsched("batch/b", "", packing.Insufficient, "general", "m"),
			},
			[]string{"Pod batch/a ×1 | Insufficient | general | m | batch/a", "Pod batch/b ×1 | Insufficient | general | m | batch/b"}},
		{"largest group first, ties in plan order",
			[]Unschedulable{
				unsched("x/a-0", "Job/a", packing.Insufficient, "p", "m"),
				unsched("x/b-0", "Job/b", packing.Insufficient, "p", "m"),
				unsched("x/c-0", "Job/c", packing.Insufficient, "p", "m"),
				unsched("x/b-1", "Job/b", packing.Insufficient, "p", "m"),
			},
			[]string{"Job x/b ×2 | Insufficient | p | m | x/b-0,x/b-1", "Job x/a ×1 | Insufficient | p | m | x/a-0", "Job x/c ×1 | Insufficient | p | m | x/c-0"}},
		{"a longer name that starts with the pod's is not the pod",
			[]Unschedulable{
				unsched("s/w-1", "StatefulSet/w", packing.Topology, "p", "pod s/w-1 conflicts with pod s/w-10"),
				unsched("s/w-2", "StatefulSet/w", packing.Topology, "p", "pod s/w-2 conflicts with pod s/w-10"),
			},
			[]string{"StatefulSet s/w ×2 | Topology | p | pod s/w-* conflicts with pod s/w-10 | s/w-1,s/w-2"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, g := range groups(tc.in) {
				got = append(got, fmt.Sprintf("%s ×%d | %s | %s | %s | %s", g.Label(), len(g.Pods), g.Kind, g.NodePool, g.Message, strings.Join(g.Pods, ",")))
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestGroupLabel(t *testing.T) {
	assert.Equal(t, "Deployment shop/web", Group{Namespace: "shop", Owner: "Deployment/web"}.Label())
	assert.Equal(t, "Pod shop/a", Group{Namespace: "shop", Pods: []string{"shop/a"}}.Label())
	assert.Equal(t, " shop/", Group{Namespace: "shop"}.Label(), "the zero group does not panic")
}

func TestBar(t *testing.T) {
	tests := []struct {
		used, capacity int64
		want           string
	}{
		{0, 100, "░░░░░░░░░░   0%"},
		{125, 1000, "█░░░░░░░░░  13%"},
		{1000, 1000, "██████████ 100%"},
		{1500, 1000, "██████████ 150%"},
		{-5, 1000, "░░░░░░░░░░   0%"},
		{5, 0, "░░░░░░░░░░    -"},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, bar(tc.used, tc.capacity), "%d/%d", tc.used, tc.capacity)
	}
}

// fixture is a view with a new node, an existing one and two groups.
func fixture() View {
	cpu := func(m int64) resources.List { return resources.List{CPU: m, Memory: 1 << 30} }
	return View{
		Nodes: []Node{
			{Name: "general-1", NodePool: "general", InstanceType: "m.large", Zone: "a", Arch: "amd64", Price: 96_000_000,
				InstanceTypes: []string{"t1", "t2", "t3", "t4", "t5", "t6", "t7"}, Requests: cpu(1000), Allocatable: cpu(2000), Pods: []string{"s/web-0"}},
			{Name: "ip-10-0-0-1", Existing: true, InstanceType: "m.large", Zone: "b", CapacityType: instancetypes.Spot,
				Price: 40_000_000, Requests: cpu(500), Allocatable: cpu(2000), Pods: []string{"s/x"}},
		},
		Groups: []Group{
			{Namespace: "s", Owner: "Deployment/web", Kind: packing.Insufficient, Message: "short", Pods: []string{"s/web-1", "s/web-2"}},
			{Namespace: "s", Kind: packing.NoNodePool, Message: "none", Pods: []string{"s/y"}},
		},
		Summary: Summary{NewNodes: 1, ExistingNodes: 1, ScheduledPods: 2, UnschedulablePods: 3, Price: 96_000_000, ExistingPrice: 40_000_000},
	}
}

func TestWriteTable(t *testing.T) {
	v := fixture()
	tests := []struct {
		name    string
		opts    Options
		table   string
		summary string
	}{
		{"default", Options{}, `NODE         STATUS    NODEPOOL  INSTANCE TYPE  ZONE  CAPACITY   USD/HOUR  PODS  CPU              MEMORY
general-1    new       general   m.large        a     on-demand  0.096000  1     █████░░░░░  50%  ██████████ 100%
ip-10-0-0-1  existing  -         m.large        b     spot       0.040000  1     ███░░░░░░░  25%  ██████████ 100%

1 new node, 2 pods scheduled, 3 unschedulable: 0.096000 USD/hour, 70.08 USD/month (plus 1 existing node at 0.040000 USD/hour)

Unschedulable pods:
  Deployment s/web ×2 — Insufficient: short
  Pod s/y — NoNodePool: none
`, `1 new node, 2 pods scheduled, 3 unschedulable: 0.096000 USD/hour, 70.08 USD/month (plus 1 existing node at 0.040000 USD/hour)

Unschedulable pods:
  Deployment s/web ×2 — Insufficient: short
  Pod s/y — NoNodePool: none
`},
		{"wide, notes, currency", Options{Currency: "CNY", Notes: []string{"prices: test", "spot: test"}, Wide: true}, `prices: test
spot: test

NODE         STATUS    NODEPOOL  INSTANCE TYPE  ZONE  CAPACITY   CNY/HOUR  PODS  CPU              MEMORY           ARCH   INSTANCE TYPES
general-1    new       general   m.large        a     on-demand  0.096000  1     █████░░░░░  50%  ██████████ 100%  amd64  t1,t2,t3,t4,t5,+2
ip-10-0-0-1  existing  -         m.large        b     spot       0.040000  1     ███░░░░░░░  25%  ██████████ 100%  -      -

1 new node, 2 pods scheduled, 3 unschedulable: 0.096000 CNY/hour, 70.08 CNY/month (plus 1 existing node at 0.040000 CNY/hour)

Unschedulable pods:
  Deployment s/web ×2 — Insufficient: short
      pods: web-1, web-2
  Pod s/y — NoNodePool: none
`, `prices: test
spot: test
1 new node, 2 pods scheduled, 3 unschedulable: 0.096000 CNY/hour, 70.08 CNY/month (plus 1 existing node at 0.040000 CNY/hour)

Unschedulable pods:
  Deployment s/web ×2 — Insufficient: short
      pods: web-1, web-2
  Pod s/y — NoNodePool: none
`},
		{"no headers: the rows alone", Options{NoHeaders: true, Notes: []string{"prices: test"}}, `general-1    new       general  m.large  a  on-demand  0.096000  1  █████░░░░░  50%  ██████████ 100%
ip-10-0-0-1  existing  -        m.large  b  spot       0.040000  1  ███░░░░░░░  25%  ██████████ 100%
`, `prices: test
1 new node, 2 pods scheduled, 3 unschedulable: 0.096000 USD/hour, 70.08 USD/month (plus 1 existing node at 0.040000 USD/hour)

Unschedulable pods:
  Deployment s/web ×2 — Insufficient: short
  Pod s/y — NoNodePool: none
`},
		{"no headers, wide", Options{NoHeaders: true, Wide: true}, `general-1    new       general  m.large  a  on-demand  0.096000  1  █████░░░░░  50%  ██████████ 100%  amd64  t1,t2,t3,t4,t5,+2
ip-10-0-0-1  existing  -        m.large  b  spot       0.040000  1  ███░░░░░░░  25%  ██████████ 100%  -      -
`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var table, summary bytes.Buffer
			require.NoError(t, v.WriteTable(&table, tc.opts))
			assert.Equal(t, tc.table, table.String())
			if tc.summary != "" {
				require.NoError(t, v.WriteSummary(&summary, tc.opts))
				assert.Equal(t, tc.summary, summary.String())
			}
		})
	}
}

// failAfter fails every write after the first n bytes.
type failAfter struct{ n int }

var errFull = errors.New("disk full")

func (f *failAfter) Write(p []byte) (int, error) {
	if len(p) > f.n {
		return 0, errFull
	}
	f.n -= len(p)
	return len(p), nil
}

func TestWriteErrors(t *testing.T) {
	v := fixture()
	o := Options{Notes: []string{"x"}, Wide: true}
	var table, summary bytes.Buffer
	require.NoError(t, v.WriteTable(&table, o))
	require.NoError(t, v.WriteSummary(&summary, o))
	for _, n := range []int{0, 1, 10, table.Len() / 2, table.Len() - 1} {
		assert.ErrorIs(t, v.WriteTable(&failAfter{n}, o), errFull, "table after %d bytes", n)
	}
	for _, n := range []int{0, summary.Len() / 2, summary.Len() - 1} {
		assert.ErrorIs(t, v.WriteSummary(&failAfter{n}, o), errFull, "summary after %d bytes", n)
	}
}

// TestUnknownPrice: an existing node of unknown price is written
// "unknown", and the totals count such nodes apart instead of adding 0.
func TestUnknownPrice(t *testing.T) {
	v := fixture()
	v.Nodes[1].Price, v.Nodes[1].PriceUnknown = 0, true
	v.Summary.ExistingPrice, v.Summary.Unpriced = 0, 1
	var table bytes.Buffer
	require.NoError(t, v.WriteTable(&table, Options{}))
	assert.Contains(t, table.String(), "ip-10-0-0-1  existing  -         m.large        b     spot       unknown   1 ")
	assert.Contains(t, table.String(), "70.08 USD/month (plus 1 existing node of unknown price)\n")

	tests := []struct {
		name string
		s    Summary
		want string
	}{
		{"no existing nodes", Summary{}, ""},
		{"all known", Summary{ExistingNodes: 2, ExistingPrice: 384_000_000}, " (plus 2 existing nodes at 0.384000 USD/hour)"},
		{"some unknown", Summary{ExistingNodes: 3, ExistingPrice: 384_000_000, Unpriced: 1},
			" (plus 2 existing nodes at 0.384000 USD/hour and 1 of unknown price)"},
		{"all unknown", Summary{ExistingNodes: 2, Unpriced: 2}, " (plus 2 existing nodes of unknown price)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, existing(tc.s, "USD"))
		})
	}
}

func TestCountDash(t *testing.T) {
	assert.Equal(t, "0 nodes", Count(0, "node"))
	assert.Equal(t, "1 node", Count(1, "node"))
	assert.Equal(t, "12 new nodes", Count(12, "new node"))
	assert.Equal(t, "-", Dash(""))
	assert.Equal(t, "x", Dash("x"))
}

// TestNil: New reads a nil problem or plan as the zero one, instead of
// panicking.
func TestNil(t *testing.T) {
	for _, v := range []View{New(nil, nil), New(nil, &packing.Plan{}), New(&packing.Problem{}, nil)} {
		assert.Empty(t, v.Nodes)
		assert.Empty(t, v.Unschedulable)
		assert.Equal(t, Summary{}, v.Summary)
	}
}

// TestBadCurrency: a currency that is not an ISO 4217 code in form is an
// error before anything is written (it would follow every price).
func TestBadCurrency(t *testing.T) {
	v := New(nil, nil)
	for _, cur := range []string{"usd", "US", "USDX", "U$D", "not a currency\n"} {
		var b strings.Builder
		err := v.WriteTable(&b, Options{Currency: cur})
		assert.ErrorIs(t, err, ErrInvalidOptions, cur)
		assert.ErrorIs(t, v.WriteSummary(&b, Options{Currency: cur}), ErrInvalidOptions, cur)
		assert.Empty(t, b.String(), cur)
	}
	for _, cur := range []string{"", "USD", "CNY", "EUR"} {
		assert.NoError(t, v.WriteTable(io.Discard, Options{Currency: cur}), cur)
	}
}
