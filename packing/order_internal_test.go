package packing

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/nodeplan/nodeplan/resources"
)

// TestFFDOrderAsStableSort holds ffdOrder's unstable sort to the stable
// sort of the same keys without the position, on pods drawn from few
// values so that most keys tie and only the position tells them apart.
func TestFFDOrderAsStableSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	epoch := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	// Times with a monotonic reading (Time.Compare orders two of them by
	// it) and without.
	now := time.Now()
	odd := []time.Time{now, now.Add(time.Second), now.Add(-time.Minute).Round(0),
		// Instants whose Unix seconds overflow int64, which Compare orders
		// by the time's own count.
		time.Unix(math.MinInt64, 0).Add(-time.Second), time.Unix(math.MaxInt64, 0), time.Unix(math.MinInt64, 0)}
	for trial := range 2_000 {
		pods := make([]Pod, rng.IntN(200))
		for i := range pods {
			created := epoch.Add(time.Duration(rng.IntN(3))*time.Second + time.Duration(rng.IntN(3))*400*time.Millisecond)
			if rng.IntN(4) == 0 {
				created = odd[rng.IntN(len(odd))]
			}
			requests := resources.List{CPU: int64(rng.IntN(3)) * 500, Memory: int64(rng.IntN(2)) << 30,
				EphemeralStorage: int64(rng.IntN(2)) << 30, Pods: int64(rng.IntN(2))}
			if rng.IntN(4) == 0 {
				requests = requests.With("nvidia.com/gpu", int64(rng.IntN(3)))
			}
			pods[i] = Pod{
				Namespace:    []string{"a", "b"}[rng.IntN(2)],
				Name:         []string{"p", "q", "r"}[rng.IntN(3)],
				UID:          []string{"", "u1", "u2"}[rng.IntN(3)],
				Priority:     int32(rng.IntN(3)),
				CreationTime: created,
				Requests:     requests,
			}
		}
		for _, byPriority := range []bool{false, true} {
			want := indexes(len(pods))
			slices.SortStableFunc(want, func(a, b int) int {
				pa, pb := &pods[a], &pods[b]
				return cmp.Or(cmpSize(pa, pb, byPriority),
					pa.CreationTime.Compare(pb.CreationTime),
					strings.Compare(pa.UID, pb.UID),
					strings.Compare(pa.Namespace, pb.Namespace),
					strings.Compare(pa.Name, pb.Name))
			})
			require.Equal(t, want, ffdOrder(pods, byPriority), "trial %d, %d pods, byPriority %t", trial, len(pods), byPriority)
		}
	}
}
