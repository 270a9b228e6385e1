package packing

import (
	"cmp"
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
	for trial := range 2_000 {
		pods := make([]Pod, rng.IntN(200))
		for i := range pods {
			pods[i] = Pod{
				Namespace:    []string{"a", "b"}[rng.IntN(2)],
				Name:         []string{"p", "q", "r"}[rng.IntN(3)],
				UID:          []string{"", "u1", "u2"}[rng.IntN(3)],
				Priority:     int32(rng.IntN(3)),
				CreationTime: epoch.Add(time.Duration(rng.IntN(3)) * time.Second),
				Requests:     resources.List{CPU: int64(rng.IntN(3)) * 500, Memory: int64(rng.IntN(2)) << 30, Pods: int64(rng.IntN(2))},
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
