package live

// absentMeans says what it means that the server does not serve r, an
// optional resource (missingWarn): no CapacityBuffer CRD, no headroom; no
// EC2NodeClass, another provider.
func absentMeans(r resource) string {
	if r.name == "capacitybuffers" {
		return "no CapacityBuffer headroom is planned"
	}
	return "the cluster's Karpenter provider is not AWS's"
}
