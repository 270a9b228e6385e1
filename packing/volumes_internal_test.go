package packing

import "testing"

// TestAttachNoAllocs: the attach check of the hot path allocates nothing,
// for a node without limits, a pod without volumes, and a pod whose
// claims it counts.
func TestAttachNoAllocs(t *testing.T) {
	u := newAttachUse(&Node{VolumeLimits: map[string]int32{"d": 3},
		Pods: []Pod{{Volumes: &Volumes{Claims: []Volume{{Driver: "d", Claim: "ns/a"}}}}}})
	vols := []Volume{{Driver: "d", Claim: "ns/a"}, {Driver: "d", Claim: "ns/b"}, {Driver: "e", Claim: "ns/c"}, {Claim: "ns/nfs"}}
	var none *attachUse
	tests := []struct {
		name string
		u    *attachUse
		vols []Volume
		want bool
	}{
		{"no limits", none, vols, true},
		{"no volumes", u, nil, true},
		{"within the limit", u, vols, true},
		{"over the limit", u, append(vols, Volume{Driver: "d", Claim: "ns/x"}, Volume{Driver: "d", Claim: "ns/y"}), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.u.admits(tc.vols); got != tc.want {
				t.Fatalf("admits = %v; want %v", got, tc.want)
			}
			if allocs := testing.AllocsPerRun(1000, func() { tc.u.admits(tc.vols) }); allocs != 0 {
				t.Errorf("allocs = %v; want 0", allocs)
			}
		})
	}
}
